internal import CSWCredSodium
package import SWCredCore

/// BLAKE2b through `crypto_generichash`, unkeyed (a checksum) or keyed (a MAC).
package enum BLAKE2b {
    /// Hashes `data` to `length` bytes (16–64; default 32), keyed when `key` is given.
    /// - Throws: `invalidParameter` for a length or key length outside libsodium's range;
    ///   `cryptoUnavailable` when libsodium fails.
    package static func hash(
        _ data: ArraySlice<UInt8>,
        key: SecureBytes? = nil,
        length: Int = 32
    ) throws(SWCredError) -> [UInt8] {
        try Sodium.ensureInitialized()
        guard (16...64).contains(length) else {
            throw SWCredError(.invalidParameter, "BLAKE2b output must be 16–64 bytes")
        }
        if let key, !(16...64).contains(key.count) {
            throw SWCredError(.invalidParameter, "BLAKE2b key must be 16–64 bytes")
        }
        var out = [UInt8](repeating: 0, count: length)
        let rc = out.withUnsafeMutableBytes { o in
            Pointers.write(o) { op, olen in
                data.withUnsafeBytes { d in
                    Pointers.read(d) { dp, dlen in
                        if let key {
                            return key.withUnsafeBytes { k in
                                Pointers.read(k) { kp, klen in
                                    crypto_generichash(op, olen, dp, UInt64(dlen), kp, klen)
                                }
                            }
                        }
                        return crypto_generichash(op, olen, dp, UInt64(dlen), nil, 0)
                    }
                }
            }
        }
        guard rc == 0 else { throw SWCredError(.cryptoUnavailable, "crypto_generichash failed (\(rc))") }
        return out
    }

    /// Hashes a whole array; see ``hash(_:key:length:)-(ArraySlice<UInt8>,_,_)``.
    package static func hash(_ data: [UInt8], key: SecureBytes? = nil, length: Int = 32) throws(SWCredError) -> [UInt8] {
        try hash(data[...], key: key, length: length)
    }
}
