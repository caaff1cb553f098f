internal import CSWCredSodium
package import SWCredCore

/// Sub-key derivation with `crypto_kdf_derive_from_key` (BLAKE2b-based).
package enum KeyDerivation {
    /// The master key length, `crypto_kdf_KEYBYTES` (32).
    package static let masterKeyLength = 32
    /// The context length, `crypto_kdf_CONTEXTBYTES` (8).
    static let contextLength = 8

    /// Derives sub-key `id` of `length` bytes from a 32-byte master key and an 8-byte context.
    /// - Throws: `invalidParameter` for a wrong master-key length, a context that is not 8 bytes
    ///   or a length outside 16–64; `cryptoUnavailable` when libsodium fails.
    package static func deriveSubkey(
        from masterKey: SecureBytes,
        id: UInt64,
        context: String,
        length: Int = 32
    ) throws(SWCredError) -> SecureBytes {
        try deriveSubkeys(from: masterKey, ids: [id], context: context, length: length)[0]
    }

    /// Derives sub-keys `ids` of `length` bytes each, into one guarded allocation: each returned
    /// key is a part of it (``SecureBytes/init(partOf:range:)``), in the order of `ids`.
    /// - Throws: as ``deriveSubkey(from:id:context:length:)``.
    package static func deriveSubkeys(
        from masterKey: SecureBytes,
        ids: [UInt64],
        context: String,
        length: Int = 32
    ) throws(SWCredError) -> [SecureBytes] {
        try Sodium.ensureInitialized()
        let ctx = Array(context.utf8)
        guard ctx.count == contextLength else {
            throw SWCredError(.invalidParameter, "crypto_kdf context must be \(contextLength) bytes")
        }
        guard masterKey.count == masterKeyLength else {
            throw SWCredError(.invalidParameter, "crypto_kdf master key must be \(masterKeyLength) bytes")
        }
        guard (16...64).contains(length) else {
            throw SWCredError(.invalidParameter, "crypto_kdf sub-key length must be 16–64 bytes")
        }
        let all = try SecureBytes(capacity: length * ids.count) { out throws(SWCredError) in
            for (index, id) in ids.enumerated() {
                let key = UnsafeMutableRawBufferPointer(rebasing: out[(index * length)..<((index + 1) * length)])
                let rc = Pointers.write(key) { op, olen in
                    masterKey.withUnsafeBytes { mk in
                        Pointers.read(mk) { mkp, _ in
                            Pointers.read(ctx) { cp, _ in
                                UnsafeRawPointer(cp).withMemoryRebound(to: CChar.self, capacity: contextLength) { cc in
                                    crypto_kdf_derive_from_key(op, olen, id, cc, mkp)
                                }
                            }
                        }
                    }
                }
                guard rc == 0 else {
                    throw SWCredError(.cryptoUnavailable, "crypto_kdf_derive_from_key failed (\(rc))")
                }
            }
            return length * ids.count
        }
        return ids.indices.map { SecureBytes(partOf: all, range: ($0 * length)..<(($0 + 1) * length)) }
    }
}
