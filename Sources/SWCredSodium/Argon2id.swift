internal import CSWCredSodium
package import SWCredCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Argon2id v1.3 parameters (`crypto_pwhash` with `crypto_pwhash_ALG_ARGON2ID13`).
package struct Argon2idParameters: Sendable, Hashable, CustomStringConvertible {
    /// The number of passes (`opslimit`).
    package var opsLimit: UInt64
    /// The memory in bytes (`memlimit`).
    package var memLimit: UInt64

    /// Creates parameters. No check happens here: see ``isWithinReadCaps``.
    package init(opsLimit: UInt64, memLimit: UInt64) {
        self.opsLimit = opsLimit
        self.memLimit = memLimit
    }

    /// The opslimit a reader accepts from a file header: 1–10.
    static let opsLimitCap: ClosedRange<UInt64> = 1...10
    /// The memlimit a reader accepts from a file header: 8 KiB–1 GiB.
    static let memLimitCap: ClosedRange<UInt64> = 8192...(1 << 30)

    /// Whether both values lie within the caps that a reader checks before the KDF runs.
    package var isWithinReadCaps: Bool {
        Self.opsLimitCap.contains(opsLimit) && Self.memLimitCap.contains(memLimit)
    }

    /// `opslimit=… memlimit=… KiB`.
    package var description: String { "opslimit=\(opsLimit) memlimit=\(memLimit / 1024) KiB" }
}

/// The Argon2id presets offered to writers (spec/store.md §4.3).
public enum KDFPreset: String, Sendable, Hashable, CaseIterable, Codable {
    /// opslimit 1, memlimit 8 KiB. Tests only: a release build of the store refuses to create or
    /// rekey with it.
    case test
    /// opslimit 2, memlimit 64 MiB (about 0.1 s).
    case interactive
    /// opslimit 3, memlimit 256 MiB (about 1 s). The default for passphrase stores.
    case moderate
    /// opslimit 4, memlimit 1 GiB (several seconds; needs 1 GiB free).
    case sensitive

    /// The preset's parameters.
    package var parameters: Argon2idParameters {
        switch self {
        case .test: Argon2idParameters(opsLimit: 1, memLimit: 8192)
        case .interactive: Argon2idParameters(opsLimit: 2, memLimit: 64 << 20)
        case .moderate: Argon2idParameters(opsLimit: 3, memLimit: 256 << 20)
        case .sensitive: Argon2idParameters(opsLimit: 4, memLimit: 1 << 30)
        }
    }
}

/// Argon2id v1.3 password hashing through `crypto_pwhash`.
package enum Argon2id {
    /// The salt length, `crypto_pwhash_SALTBYTES` (16).
    package static let saltLength = 16

    /// Derives `outputLength` bytes from a passphrase with Argon2id v1.3.
    ///
    /// The algorithm id passed is always `crypto_pwhash_ALG_ARGON2ID13`, never the library's
    /// default. This call blocks for as long as the parameters ask: call it from a thread of your
    /// own, not from Swift's cooperative pool.
    ///
    /// - Parameters:
    ///   - passphrase: the passphrase bytes, used as they are.
    ///   - salt: exactly ``saltLength`` bytes.
    ///   - parameters: must satisfy ``Argon2idParameters/isWithinReadCaps``.
    ///   - outputLength: the key length (16 or more).
    /// - Returns: the derived key in guarded memory.
    /// - Throws: `invalidParameter` for a bad salt length or parameters outside the caps,
    ///   `resourceExhausted` when memory runs out, `cryptoUnavailable` for any other failure.
    package static func deriveKey(
        passphrase: SecureBytes,
        salt: [UInt8],
        parameters: Argon2idParameters,
        outputLength: Int = 32
    ) throws(SWCredError) -> SecureBytes {
        try Sodium.ensureInitialized()
        guard salt.count == saltLength else {
            throw SWCredError(.invalidParameter, "Argon2id salt must be \(saltLength) bytes, got \(salt.count)")
        }
        guard parameters.isWithinReadCaps, let memLimit = Int(exactly: parameters.memLimit) else {
            throw SWCredError(.invalidParameter, "Argon2id parameters outside the caps (\(parameters))")
        }
        guard outputLength >= 16 else {
            throw SWCredError(.invalidParameter, "Argon2id output must be at least 16 bytes")
        }
        return try SecureBytes(capacity: outputLength) { out throws(SWCredError) in
            errno = 0
            let rc: Int32 = Pointers.write(out) { op, olen in
                passphrase.withUnsafeBytes { pw in
                    Pointers.read(pw) { pwp, pwlen in
                        Pointers.read(salt) { sp, _ in
                            // crypto_pwhash takes the passphrase as `const char *`: rebind, never copy.
                            UnsafeRawPointer(pwp).withMemoryRebound(to: CChar.self, capacity: max(pwlen, 1)) { pwc in
                                crypto_pwhash(
                                    op, UInt64(olen), pwc, UInt64(pwlen), sp,
                                    parameters.opsLimit, memLimit, crypto_pwhash_ALG_ARGON2ID13
                                )
                            }
                        }
                    }
                }
            }
            guard rc == 0 else {
                if errno == ENOMEM {
                    throw SWCredError(
                        .resourceExhausted,
                        "Argon2id could not allocate \(parameters.memLimit / 1024) KiB; choose a smaller preset"
                    )
                }
                throw SWCredError(.cryptoUnavailable, "crypto_pwhash failed (errno \(errno))")
            }
            return outputLength
        }
    }
}
