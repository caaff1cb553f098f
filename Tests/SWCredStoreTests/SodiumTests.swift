import SWCredCore
import SWCredSodium
import Testing

/// T12: known answers for every libsodium call the store uses, and AEAD tamper checks.
@Suite("T12: libsodium known answers and AEAD tamper checks")
struct SodiumTests {
    @Test("T12: XChaCha20-Poly1305 matches draft-irtf-cfrg-xchacha-03 A.3.1")
    func xchachaKnownAnswer() throws {
        let key = try SecureBytes(copying: Hex.decode("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"))
        let nonce = Hex.decode("404142434445464748494a4b4c4d4e4f5051525354555657")
        let ad = Hex.decode("50515253c0c1c2c3c4c5c6c7")
        let plaintext = Array(
            "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."
                .utf8
        )
        let expected = Hex.decode(
            "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb"
                + "731c7f1b0b4aa6440bf3a82f4eda7e39ae64c6708c54c216cb96b72e1213b452"
                + "2f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff9"
                + "21f9664c97637da9768812f615c68b13b52e" + "c0875924c1c7987947deafd8780acf49"
        )
        let sealed = try XChaCha20Poly1305.seal(plaintext, associatedData: ad, nonce: nonce, key: key)
        #expect(sealed == expected)
        #expect(try XChaCha20Poly1305.open(sealed, associatedData: ad, nonce: nonce, key: key) == plaintext)
    }

    @Test("T12: AEAD rejects changed associated data, a flipped tag, a flipped ciphertext byte, another nonce or key")
    func aeadTamper() throws {
        let key = try SecureBytes(randomCount: 32)
        let otherKey = try SecureBytes(randomCount: 32)
        let nonce = try Sodium.randomBytes(24)
        let ad = Array("header".utf8)
        let sealed = try XChaCha20Poly1305.seal(Array("payload".utf8), associatedData: ad, nonce: nonce, key: key)
        var flippedTag = sealed
        flippedTag[flippedTag.count - 1] ^= 0x01
        var flippedBody = sealed
        flippedBody[0] ^= 0x80
        var otherNonce = nonce
        otherNonce[23] ^= 0x01
        let attempts: [() throws -> [UInt8]] = [
            { try XChaCha20Poly1305.open(sealed, associatedData: Array("headeR".utf8), nonce: nonce, key: key) },
            { try XChaCha20Poly1305.open(flippedTag, associatedData: ad, nonce: nonce, key: key) },
            { try XChaCha20Poly1305.open(flippedBody, associatedData: ad, nonce: nonce, key: key) },
            { try XChaCha20Poly1305.open(sealed, associatedData: ad, nonce: otherNonce, key: key) },
            { try XChaCha20Poly1305.open(sealed, associatedData: ad, nonce: nonce, key: otherKey) },
            { try XChaCha20Poly1305.open(Array(sealed.prefix(15)), associatedData: ad, nonce: nonce, key: key) },
        ]
        for attempt in attempts {
            #expect(throws: SWCredError(.authenticationFailed, "")) { _ = try attempt() }
        }
    }

    @Test("T12: in-place AEAD gives the bytes of the copying one, opens only with the right tag, and writes no plaintext when refused")
    func inPlaceAEAD() throws {
        let key = try SecureBytes(randomCount: 32)
        let nonce = (0..<24).map { UInt8($0 &* 7) }
        let header = Array("header".utf8)
        for length in [0, 1, 63, 64, 65, 4_096] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) }
            let copied = try XChaCha20Poly1305.seal(message, associatedData: header, nonce: nonce, key: key, prefix: header)
            // The in-place form: header, then the message, then 16 bytes for the tag.
            var buffer = header + message + Array(repeating: 0, count: 16)
            let range = header.count..<(header.count + length)
            try XChaCha20Poly1305.sealInPlace(&buffer, plaintext: range, associatedData: header, nonce: nonce, key: key)
            let same = buffer == copied
            #expect(same, "length \(length)")

            var tampered = buffer
            tampered[tampered.count - 1] ^= 0x01
            let before = tampered
            #expect(throws: SWCredError.self) {
                try XChaCha20Poly1305.openInPlace(&tampered, ciphertext: range, associatedData: header, nonce: nonce, key: key)
            }
            // Refused: libsodium zeroes the message bytes (no plaintext); header and tag untouched.
            let zeroed = tampered[range].allSatisfy { $0 == 0 }
            let restUnchanged = tampered[..<range.lowerBound] == before[..<range.lowerBound]
                && tampered[range.upperBound...] == before[range.upperBound...]
            #expect(zeroed && restUnchanged, "length \(length)")
            #expect(throws: SWCredError.self) {
                var other = buffer
                try XChaCha20Poly1305.openInPlace(&other, ciphertext: range, associatedData: Array("HEADER".utf8), nonce: nonce, key: key)
            }
            try XChaCha20Poly1305.openInPlace(&buffer, ciphertext: range, associatedData: header, nonce: nonce, key: key)
            let opened = Array(buffer[range]) == message
            #expect(opened, "length \(length)")
        }
        var short = [UInt8](repeating: 0, count: 20)
        #expect(throws: SWCredError.self) {
            try XChaCha20Poly1305.sealInPlace(&short, plaintext: 0..<5, associatedData: [], nonce: nonce, key: key)
        }
    }

    @Test("T12: Argon2id v1.3 matches the reference argon2 CLI (t=5, m=1 MiB, p=1)")
    func argon2idKnownAnswer() throws {
        let derived = try Argon2id.deriveKey(
            passphrase: try SecureBytes(copying: Array("123".utf8)),
            salt: Array("ABCDEFGHIJKLMNOP".utf8),
            parameters: Argon2idParameters(opsLimit: 5, memLimit: 1 << 20)
        )
        let hex = derived.withUnsafeBytes { Hex.encode($0) }
        #expect(hex == "3c5d010180ba0cf5b6b858cba23b318e42d33088983c404598599c3b029ecac6")
    }

    @Test("T12: Argon2id refuses parameters outside the caps and bad salts before running")
    func argon2idCaps() throws {
        let pw = try SecureBytes(copying: Array("pw".utf8))
        let salt = [UInt8](repeating: 1, count: 16)
        for parameters in [
            Argon2idParameters(opsLimit: 11, memLimit: 8192), Argon2idParameters(opsLimit: 0, memLimit: 8192),
            Argon2idParameters(opsLimit: 1, memLimit: 8191), Argon2idParameters(opsLimit: 1, memLimit: (1 << 30) + 1),
        ] {
            #expect(throws: SWCredError(.invalidParameter, "")) {
                _ = try Argon2id.deriveKey(passphrase: pw, salt: salt, parameters: parameters)
            }
        }
        #expect(throws: SWCredError(.invalidParameter, "")) {
            _ = try Argon2id.deriveKey(passphrase: pw, salt: [1, 2, 3], parameters: KDFPreset.test.parameters)
        }
    }

    @Test("T12: crypto_kdf matches libsodium's kdf.exp vectors")
    func kdfKnownAnswer() throws {
        let master = try SecureBytes(copying: (0..<32).map { UInt8($0) })
        let id0 = try KeyDerivation.deriveSubkey(from: master, id: 0, context: "KDF test", length: 64)
        #expect(
            id0.withUnsafeBytes { Hex.encode($0) }
                == "a0c724404728c8bb95e5433eb6a9716171144d61efb23e74b873fcbeda51d807"
                + "1b5d70aae12066dfc94ce943f145aa176c055040c3dd73b0a15e36254d450614"
        )
        let id32 = try KeyDerivation.deriveSubkey(from: master, id: 32, context: "KDF test", length: 32)
        #expect(
            id32.withUnsafeBytes { Hex.encode($0) } == "154b291f11196737f8b7f491e4ca11764e0227d34f94295408a869f007aa8618"
        )
        #expect(throws: SWCredError(.invalidParameter, "")) {
            _ = try KeyDerivation.deriveSubkey(from: master, id: 1, context: "short")
        }
    }

    @Test("T12: sub-keys derived together share one guarded allocation and equal the ones derived alone")
    func kdfTogether() throws {
        var parts: [SecureBytes]
        do {
            let master = try SecureBytes(copying: (0..<32).map { UInt8($0) })
            parts = try KeyDerivation.deriveSubkeys(from: master, ids: [0, 32, 7], context: "KDF test", length: 32)
            for (part, id) in zip(parts, [UInt64(0), 32, 7]) {
                let alone = try KeyDerivation.deriveSubkey(from: master, id: id, context: "KDF test", length: 32)
                #expect(part.count == 32 && part.constantTimeEquals(alone))
            }
        }
        // The master is gone; the first part outlives the others and still reads the shared memory.
        let first = parts[0]
        parts.removeAll()
        let again = try KeyDerivation.deriveSubkey(
            from: try SecureBytes(copying: (0..<32).map { UInt8($0) }), id: 0, context: "KDF test", length: 32)
        #expect(first.constantTimeEquals(again))
        // A part of a part is a part of the same allocation.
        let inner = SecureBytes(partOf: first, range: 8..<16)
        #expect(inner.count == 8)
        #expect(inner.withUnsafeBytes { Array($0) } == first.withUnsafeBytes { Array($0[8..<16]) })
    }

    @Test("T12: BLAKE2b matches RFC 7693 and the reference keyed KAT")
    func blake2bKnownAnswer() throws {
        #expect(
            Hex.encode(try BLAKE2b.hash(Array("abc".utf8), length: 64))
                == "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
                + "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923"
        )
        #expect(
            Hex.encode(try BLAKE2b.hash([UInt8]()))
                == "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8"
        )
        let key = try SecureBytes(copying: (0..<64).map { UInt8($0) })
        #expect(
            Hex.encode(try BLAKE2b.hash([UInt8](), key: key, length: 64))
                == "10ebb67700b1868efb4417987acf4690ae9d972fb7a590c2f02871799aaa4786"
                + "b5e996e8f0f4eb981fc214b005f42d2ff4233499391653df7aefcbc13fc51568"
        )
    }

    @Test("Constant-time comparison and redacted secrets")
    func compareAndRedact() throws {
        #expect(Sodium.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!Sodium.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!Sodium.constantTimeEqual([1, 2, 3], [1, 2]))
        let secret = try SecureBytes(copying: Array("hunter2-sentinel".utf8))
        #expect(!String(describing: secret).contains("hunter2"))
        #expect(!String(reflecting: secret).contains("hunter2"))
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains("hunter2"))
        #expect(secret.description.contains(SecureBytes.redactionMarker))
        #expect(secret.constantTimeEquals(try SecureBytes(copying: Array("hunter2-sentinel".utf8))))
        #expect(!secret.constantTimeEquals(try SecureBytes(copying: Array("hunter3-sentinel".utf8))))
    }
}
