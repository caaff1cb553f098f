internal import CSWCredSodium
public import SWCredCore

/// libsodium, initialised once per process.
///
/// `sodium_init()` runs the first time any swcred code touches libsodium, through a lazy static
/// (thread-safe by the Swift runtime). It returns 0 on success and 1 when already initialised;
/// both are fine; -1 is a fatal ``SWCredError/Code/cryptoUnavailable``.
///
/// This module is the only one that imports the C module `CSWCredSodium`. Every C return code
/// is turned into an ``SWCredError`` here; the rest of swcred sees plain Swift types.
package enum Sodium {
    private static let initResult: Int32 = sodium_init()

    /// The libsodium version string (for example `1.0.18`).
    package static var versionString: String {
        String(cString: sodium_version_string())
    }

    /// Ensures libsodium is initialised.
    /// - Throws: ``SWCredError/Code/cryptoUnavailable`` when `sodium_init` fails.
    static func ensureInitialized() throws(SWCredError) {
        guard initResult >= 0 else {
            throw SWCredError(.cryptoUnavailable, "libsodium could not be initialised (sodium_init returned \(initResult))")
        }
    }

    /// Fills a new array with `count` random bytes from `randombytes_buf`.
    package static func randomBytes(_ count: Int) throws(SWCredError) -> [UInt8] {
        try ensureInitialized()
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { randombytes_buf(base, raw.count) }
        }
        return bytes
    }

    /// A uniform random integer in `0..<upperBound` from `randombytes_uniform` (unbiased by rejection).
    /// - Precondition: `0 < upperBound <= UInt32.max`.
    package static func randomUniform(_ upperBound: UInt32) throws(SWCredError) -> UInt32 {
        precondition(upperBound > 0, "randomUniform needs a positive bound")
        try ensureInitialized()
        return randombytes_uniform(upperBound)
    }

    /// Compares two byte sequences in constant time (for their common length) with `sodium_memcmp`.
    ///
    /// - Returns: `true` when both have the same length and the same bytes. A length difference
    ///   returns `false` at once (lengths are not secret in swcred's uses: MACs and checksums).
    package static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.isEmpty { return true }
        return lhs.withUnsafeBytes { l in
            rhs.withUnsafeBytes { r in
                guard let lb = l.baseAddress, let rb = r.baseAddress else { return false }
                return sodium_memcmp(lb, rb, l.count) == 0
            }
        }
    }

    /// Overwrites the array's storage with zeros using `sodium_memzero` (which the compiler
    /// cannot remove). Copies that Swift made earlier are not reached.
    package static func memzero(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { sodium_memzero(base, raw.count) }
        }
    }

    /// Overwrites a raw buffer with zeros using `sodium_memzero`.
    package static func memzero(_ buffer: UnsafeMutableRawBufferPointer) {
        if let base = buffer.baseAddress { sodium_memzero(base, buffer.count) }
    }
}

extension SWCredError.Code {
    /// `sodium_init` failed, or a libsodium call failed unexpectedly (exit 1).
    public static let cryptoUnavailable = Self(.cryptoUnavailable)
    /// The KDF or a guarded allocation could not get memory, `errSecAllocate` -108 (exit 71).
    public static let resourceExhausted = Self(.resourceExhausted, status: -108)
    /// An AEAD tag or MAC did not verify (exit 21). The store reports this as `corruptPayload` or
    /// `wrongKey`; it reaches callers of ``XChaCha20Poly1305`` directly only.
    public static let authenticationFailed = Self(.authenticationFailed)
}
