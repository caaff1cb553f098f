internal import CSWCredSodium
public import SWCredCore

/// XChaCha20-Poly1305 IETF AEAD in combined mode (`crypto_aead_xchacha20poly1305_ietf_*`).
public enum XChaCha20Poly1305 {
    /// Key length (32).
    public static let keyLength = 32
    /// Nonce length (24). Random nonces are safe at this size.
    public static let nonceLength = 24
    /// Tag length (16), appended to the ciphertext.
    public static let tagLength = 16

    /// Encrypts and authenticates `plaintext`, authenticating `associatedData` too.
    /// - Returns: ciphertext followed by the 16-byte tag.
    /// - Throws: `invalidParameter` for a wrong key or nonce length; `cryptoUnavailable` when
    ///   libsodium fails.
    public static func seal(
        _ plaintext: [UInt8],
        associatedData: [UInt8],
        nonce: [UInt8],
        key: SecureBytes
    ) throws(SWCredError) -> [UInt8] {
        try Sodium.ensureInitialized()
        try check(nonce: nonce, key: key)
        var out = [UInt8](repeating: 0, count: plaintext.count + tagLength)
        var outLength: UInt64 = 0
        let rc = key.withUnsafeBytes { k in
            out.withUnsafeMutableBytes { o in
                Pointers.write(o) { op, _ in
                    Pointers.read(plaintext) { mp, mlen in
                        Pointers.read(associatedData) { adp, adlen in
                            Pointers.read(nonce) { np, _ in
                                Pointers.read(k) { kp, _ in
                                    crypto_aead_xchacha20poly1305_ietf_encrypt(
                                        op, &outLength, mp, UInt64(mlen), adp, UInt64(adlen), nil, np, kp
                                    )
                                }
                            }
                        }
                    }
                }
            }
        }
        guard rc == 0, outLength == UInt64(out.count) else {
            throw SWCredError(.cryptoUnavailable, "crypto_aead_xchacha20poly1305_ietf_encrypt failed (\(rc))")
        }
        return out
    }

    /// Verifies the tag and decrypts. No plaintext is returned unless the tag verifies.
    /// - Returns: the plaintext. The caller should wipe it with ``Sodium/memzero(_:)-(inout [UInt8])`` when done.
    /// - Throws: ``SWCredError/Code/authenticationFailed`` when the tag, the associated data, the
    ///   nonce or the key do not match; `invalidParameter` for wrong lengths.
    public static func open(
        _ ciphertext: ArraySlice<UInt8>,
        associatedData: [UInt8],
        nonce: [UInt8],
        key: SecureBytes
    ) throws(SWCredError) -> [UInt8] {
        try Sodium.ensureInitialized()
        try check(nonce: nonce, key: key)
        guard ciphertext.count >= tagLength else {
            throw SWCredError(.authenticationFailed, "ciphertext shorter than the AEAD tag")
        }
        var out = [UInt8](repeating: 0, count: ciphertext.count - tagLength)
        var outLength: UInt64 = 0
        let rc = key.withUnsafeBytes { k in
            out.withUnsafeMutableBytes { o in
                Pointers.write(o) { op, _ in
                    ciphertext.withUnsafeBytes { c in
                        Pointers.read(c) { cp, clen in
                            Pointers.read(associatedData) { adp, adlen in
                                Pointers.read(nonce) { np, _ in
                                    Pointers.read(k) { kp, _ in
                                        crypto_aead_xchacha20poly1305_ietf_decrypt(
                                            op, &outLength, nil, cp, UInt64(clen), adp, UInt64(adlen), np, kp
                                        )
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        guard rc == 0, outLength == UInt64(out.count) else {
            Sodium.memzero(&out)
            throw SWCredError(.authenticationFailed, "the AEAD tag did not verify")
        }
        return out
    }

    /// Verifies and decrypts a whole array; see ``open(_:associatedData:nonce:key:)-(ArraySlice<UInt8>,_,_,_)``.
    public static func open(
        _ ciphertext: [UInt8],
        associatedData: [UInt8],
        nonce: [UInt8],
        key: SecureBytes
    ) throws(SWCredError) -> [UInt8] {
        try open(ciphertext[...], associatedData: associatedData, nonce: nonce, key: key)
    }

    private static func check(nonce: [UInt8], key: SecureBytes) throws(SWCredError) {
        guard nonce.count == nonceLength else {
            throw SWCredError(.invalidParameter, "XChaCha20-Poly1305 nonce must be \(nonceLength) bytes")
        }
        guard key.count == keyLength else {
            throw SWCredError(.invalidParameter, "XChaCha20-Poly1305 key must be \(keyLength) bytes")
        }
    }
}
