internal import CSWCredSodium
package import SWCredCore

/// XChaCha20-Poly1305 IETF AEAD in combined mode (`crypto_aead_xchacha20poly1305_ietf_*`).
package enum XChaCha20Poly1305 {
    /// Key length (32).
    static let keyLength = 32
    /// Nonce length (24). Random nonces are safe at this size.
    package static let nonceLength = 24
    /// Tag length (16), appended to the ciphertext.
    package static let tagLength = 16

    /// Encrypts and authenticates `plaintext`, authenticating `associatedData` too.
    /// - Parameter prefix: bytes placed before the ciphertext in the result (a file's header),
    ///   so that a sealed file is built in one buffer of its final size, without another copy.
    /// - Returns: `prefix`, then the ciphertext followed by the 16-byte tag.
    /// - Throws: `invalidParameter` for a wrong key or nonce length; `cryptoUnavailable` when
    ///   libsodium fails.
    package static func seal(
        _ plaintext: [UInt8],
        associatedData: [UInt8],
        nonce: [UInt8],
        key: SecureBytes,
        prefix: [UInt8] = []
    ) throws(SWCredError) -> [UInt8] {
        try check(nonce: nonce, key: key)
        let sealedLength = plaintext.count + tagLength
        var outLength: UInt64 = 0
        var rc: Int32 = -1
        // Every byte is written (the prefix, then libsodium's output, checked below), so the
        // buffer is not zero-filled first: at 100,000 items that fill cost as much as the AEAD.
        let out = [UInt8](unsafeUninitializedCapacity: prefix.count + sealedLength) { buffer, initialized in
            LargeBuffer.prepare(UnsafeMutableRawBufferPointer(buffer))
            guard let base = buffer.baseAddress else { return }
            prefix.withUnsafeBufferPointer { p in
                if let source = p.baseAddress { base.initialize(from: source, count: p.count) }
            }
            rc = key.withUnsafeBytes { k in
                Pointers.read(plaintext) { mp, mlen in
                    Pointers.read(associatedData) { adp, adlen in
                        Pointers.read(nonce) { np, _ in
                            Pointers.read(k) { kp, _ in
                                crypto_aead_xchacha20poly1305_ietf_encrypt(
                                    base + prefix.count, &outLength, mp, UInt64(mlen), adp, UInt64(adlen), nil, np, kp
                                )
                            }
                        }
                    }
                }
            }
            initialized = rc == 0 && outLength == UInt64(sealedLength) ? buffer.count : 0
        }
        guard rc == 0, outLength == UInt64(sealedLength) else {
            throw SWCredError(.cryptoUnavailable, "crypto_aead_xchacha20poly1305_ietf_encrypt failed (\(rc))")
        }
        return out
    }

    /// Verifies the tag and decrypts. No plaintext is returned unless the tag verifies.
    /// - Returns: the plaintext. The caller should wipe it with ``Sodium/memzero(_:)-(inout [UInt8])`` when done.
    /// - Throws: ``SWCredError/Code/authenticationFailed`` when the tag, the associated data, the
    ///   nonce or the key do not match; `invalidParameter` for wrong lengths.
    package static func open(
        _ ciphertext: ArraySlice<UInt8>,
        associatedData: [UInt8],
        nonce: [UInt8],
        key: SecureBytes
    ) throws(SWCredError) -> [UInt8] {
        try check(nonce: nonce, key: key)
        guard ciphertext.count >= tagLength else {
            throw SWCredError(.authenticationFailed, "ciphertext shorter than the AEAD tag")
        }
        let plaintextLength = ciphertext.count - tagLength
        var outLength: UInt64 = 0
        var rc: Int32 = -1
        // libsodium verifies the tag before it writes any plaintext; the buffer is not
        // zero-filled first, and on failure it is wiped and reported as holding nothing.
        let out = [UInt8](unsafeUninitializedCapacity: plaintextLength) { buffer, initialized in
            let o = UnsafeMutableRawBufferPointer(buffer)
            LargeBuffer.prepare(o)
            rc = key.withUnsafeBytes { k in
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
            if rc == 0, outLength == UInt64(plaintextLength) {
                initialized = plaintextLength
            } else {
                if let base = o.baseAddress { sodium_memzero(base, o.count) }
                initialized = 0
            }
        }
        guard rc == 0, outLength == UInt64(plaintextLength) else {
            throw SWCredError(.authenticationFailed, "the AEAD tag did not verify")
        }
        return out
    }

    /// Verifies and decrypts a whole array; see ``open(_:associatedData:nonce:key:)-(ArraySlice<UInt8>,_,_,_)``.
    package static func open(
        _ ciphertext: [UInt8],
        associatedData: [UInt8],
        nonce: [UInt8],
        key: SecureBytes
    ) throws(SWCredError) -> [UInt8] {
        try open(ciphertext[...], associatedData: associatedData, nonce: nonce, key: key)
    }

    /// Initializes libsodium and checks the nonce and key lengths.
    private static func check(nonce: [UInt8], key: SecureBytes) throws(SWCredError) {
        try Sodium.ensureInitialized()
        guard nonce.count == nonceLength else {
            throw SWCredError(.invalidParameter, "XChaCha20-Poly1305 nonce must be \(nonceLength) bytes")
        }
        guard key.count == keyLength else {
            throw SWCredError(.invalidParameter, "XChaCha20-Poly1305 key must be \(keyLength) bytes")
        }
    }
}

// In place: a whole store file held in one buffer is decrypted and encrypted where it lies, so
// that adding one item to a 13 MB store does not allocate (and fault in, and wipe) three more
// buffers of its size. libsodium's detached functions read and write a message in place:
// decryption checks the tag over the ciphertext before writing any plaintext, and encryption
// computes the tag over the ciphertext it has written.
extension XChaCha20Poly1305 {
    /// Verifies the tag at `buffer[range.upperBound..<(range.upperBound + 16)]` over the
    /// ciphertext `buffer[range]` and `associatedData`, then decrypts `buffer[range]` in place.
    /// No plaintext is written unless the tag verifies; when it does not, libsodium zeroes
    /// `buffer[range]` (the ciphertext is lost from the buffer, never the file it came from).
    /// The caller wipes the plaintext.
    /// - Throws: ``SWCredError/Code/authenticationFailed``; `invalidParameter` for wrong lengths
    ///   or a range (with its tag) outside `buffer`.
    package static func openInPlace(
        _ buffer: inout [UInt8], ciphertext range: Range<Int>, associatedData: [UInt8], nonce: [UInt8], key: SecureBytes
    ) throws(SWCredError) {
        try checkInPlace(range, in: buffer, nonce: nonce, key: key)
        let rc = withInPlacePointers(&buffer, associatedData, nonce, key) { base, adp, adlen, np, kp in
            crypto_aead_xchacha20poly1305_ietf_decrypt_detached(
                base + range.lowerBound, nil, base + range.lowerBound, UInt64(range.count),
                base + range.upperBound, adp, UInt64(adlen), np, kp
            )
        }
        guard rc == 0 else { throw SWCredError(.authenticationFailed, "the AEAD tag did not verify") }
    }

    /// Encrypts `buffer[range]` in place, authenticating `associatedData` too, and writes the
    /// 16-byte tag at `buffer[range.upperBound..<(range.upperBound + 16)]`.
    /// - Throws: `invalidParameter` for wrong lengths or a range (with its tag) outside
    ///   `buffer`; `cryptoUnavailable` when libsodium fails.
    package static func sealInPlace(
        _ buffer: inout [UInt8], plaintext range: Range<Int>, associatedData: [UInt8], nonce: [UInt8], key: SecureBytes
    ) throws(SWCredError) {
        try checkInPlace(range, in: buffer, nonce: nonce, key: key)
        var tagLengthWritten: UInt64 = 0
        let rc = withInPlacePointers(&buffer, associatedData, nonce, key) { base, adp, adlen, np, kp in
            crypto_aead_xchacha20poly1305_ietf_encrypt_detached(
                base + range.lowerBound, base + range.upperBound, &tagLengthWritten,
                base + range.lowerBound, UInt64(range.count), adp, UInt64(adlen), nil, np, kp
            )
        }
        guard rc == 0, tagLengthWritten == UInt64(tagLength) else {
            throw SWCredError(.cryptoUnavailable, "crypto_aead_xchacha20poly1305_ietf_encrypt_detached failed (\(rc))")
        }
    }

    /// Runs `body` with pointers to `buffer`, the associated data, the nonce and the key.
    private static func withInPlacePointers(
        _ buffer: inout [UInt8], _ associatedData: [UInt8], _ nonce: [UInt8], _ key: SecureBytes,
        _ body: (UnsafeMutablePointer<UInt8>, UnsafePointer<UInt8>, Int, UnsafePointer<UInt8>, UnsafePointer<UInt8>) -> Int32
    ) -> Int32 {
        key.withUnsafeBytes { k in
            buffer.withUnsafeMutableBytes { b in
                Pointers.write(b) { base, _ in
                    Pointers.read(associatedData) { adp, adlen in
                        Pointers.read(nonce) { np, _ in
                            Pointers.read(k) { kp, _ in body(base, adp, adlen, np, kp) }
                        }
                    }
                }
            }
        }
    }

    /// ``check(nonce:key:)``, then checks that `range` and its tag fit `buffer`.
    private static func checkInPlace(
        _ range: Range<Int>, in buffer: [UInt8], nonce: [UInt8], key: SecureBytes
    ) throws(SWCredError) {
        try check(nonce: nonce, key: key)
        guard range.lowerBound >= 0, range.upperBound <= buffer.count - tagLength else {
            throw SWCredError(.invalidParameter, "the in-place AEAD range and its tag do not fit the buffer")
        }
    }
}
