import SWCredCore
import SWCredSodium

/// The plaintext header of a format-1 keychain file. See ``StoreFormat`` for the byte layout.
struct StoreHeader: Sendable, Equatable {
    /// `SWCREDKC`.
    static let magic: [UInt8] = Array("SWCREDKC".utf8)
    static let formatVersion: UInt16 = 1
    /// Byte offsets of format 1.
    enum Offset {
        static let magic = 0
        static let version = 8
        static let keySource = 10
        static let kdf = 11
        static let opsLimit = 12
        static let memLimit = 20
        static let salt = 28
        static let aead = 44
        static let nonce = 45
        static let storeID = 69
        static let generation = 85
        static let payloadLength = 93
        static let mac = 101
        static let checksum = 133
        static let end = 165
    }
    static let length = Offset.end
    static let saltLength = 16
    static let storeIDLength = 16
    static let macLength = 32
    static let checksumLength = 32
    static let tagLength = XChaCha20Poly1305.tagLength

    /// Key-source ids.
    enum KeySourceID: UInt8, Sendable {
        case keyFile = 1
        case passphrase = 2
    }

    /// KDF ids.
    enum KDFID: UInt8, Sendable {
        case none = 0
        case argon2id13 = 1
    }

    /// AEAD ids.
    enum AEADID: UInt8, Sendable {
        case xchacha20poly1305IETF = 1
    }

    var keySource: KeySourceID
    var kdf: KDFID
    var opsLimit: UInt64
    var memLimit: UInt64
    var salt: [UInt8]
    var aead: AEADID = .xchacha20poly1305IETF
    var nonce: [UInt8]
    var storeID: [UInt8]
    var generation: UInt64
    var payloadLength: UInt64
    var mac: [UInt8] = Array(repeating: 0, count: 32)
    var checksum: [UInt8] = Array(repeating: 0, count: 32)

    /// Where the payload lies in the file: after the header, before the tag (a parsed header's
    /// file is exactly that long, read order step 5).
    var payloadRange: Range<Int> { Self.length..<(Self.length + Int(payloadLength)) }

    /// The key parameters that must not change between open and write (§6 step 2).
    var keyParameters: KeyParameters {
        KeyParameters(keySource: keySource, kdf: kdf, opsLimit: opsLimit, memLimit: memLimit, salt: salt)
    }

    struct KeyParameters: Sendable, Equatable {
        var keySource: KeySourceID
        var kdf: KDFID
        var opsLimit: UInt64
        var memLimit: UInt64
        var salt: [UInt8]

        var argon2: Argon2idParameters { Argon2idParameters(opsLimit: opsLimit, memLimit: memLimit) }
    }

    /// Bytes 0..<101: every field the MAC covers.
    func macInput() -> [UInt8] {
        var w = ByteWriter(capacity: Self.length)
        w.raw(Self.magic)
        w.u16(Self.formatVersion)
        w.u8(keySource.rawValue)
        w.u8(kdf.rawValue)
        w.u64(opsLimit)
        w.u64(memLimit)
        w.raw(salt)
        w.u8(aead.rawValue)
        w.raw(nonce)
        w.raw(storeID)
        w.u64(generation)
        w.u64(payloadLength)
        precondition(w.bytes.count == Offset.mac, "header layout")
        return w.bytes
    }

    /// The complete 165 bytes, MAC and checksum included.
    func encoded() -> [UInt8] {
        var bytes = macInput()
        bytes.append(contentsOf: mac)
        bytes.append(contentsOf: checksum)
        precondition(bytes.count == Self.length, "header layout")
        return bytes
    }

    /// Computes the MAC (sub-key 1) and then the checksum over everything before it.
    mutating func seal(macKey: SecureBytes) throws(SWCredError) {
        mac = try BLAKE2b.hash(macInput(), key: macKey)
        var covered = macInput()
        covered.append(contentsOf: mac)
        checksum = try BLAKE2b.hash(covered)
    }

    /// Verifies the MAC in constant time.
    func macIsValid(macKey: SecureBytes) throws(SWCredError) -> Bool {
        Sodium.constantTimeEqual(try BLAKE2b.hash(macInput(), key: macKey), mac)
    }

    /// Steps 1–5 of the read order (spec/store.md §4.6) on a whole file's bytes.
    ///
    /// 1. too short for the magic, or a wrong magic: `notAStore`;
    /// 2. unknown version: `unsupportedFormat`; shorter than the header: `corruptHeader`;
    /// 3. checksum mismatch: `corruptHeader`;
    /// 4. unknown ids: `unsupportedFormat`; KDF parameters or payload length outside the caps:
    ///    `parametersOutOfBounds`;
    /// 5. file length ≠ header + payload + tag: `corruptPayload`.
    static func parse(file: [UInt8], maxFileSize: Int) throws(SWCredError) -> StoreHeader {
        try parse(prefix: file, fileSize: file.count, maxFileSize: maxFileSize)
    }

    /// The same steps on the first bytes of a file (at least the header's length, when the file
    /// has them) and the file's size: what an open that leaves the payload to a later read needs.
    static func parse(prefix file: [UInt8], fileSize: Int, maxFileSize: Int) throws(SWCredError) -> StoreHeader {
        // Step 1: magic.
        guard file.count >= magic.count, file[0..<magic.count].elementsEqual(magic) else {
            throw SWCredError(.notAStore, "the file is not a swcred keychain (no magic value)")
        }
        // Step 2: version, then the version's header length.
        guard file.count >= Offset.version + 2 else {
            throw SWCredError(.corruptHeader, "the header is truncated (\(file.count) bytes)")
        }
        let version = UInt16(file[Offset.version]) | UInt16(file[Offset.version + 1]) << 8
        guard version == formatVersion else {
            throw SWCredError(.unsupportedFormat, "format version \(version) is not supported (this swcred reads 1)")
        }
        guard file.count >= length else {
            throw SWCredError(.corruptHeader, "the header is truncated (\(file.count) of \(length) bytes)")
        }
        // Step 3: checksum over every byte before it, the MAC included.
        let expected: [UInt8]
        do {
            expected = try BLAKE2b.hash(file[0..<Offset.checksum])
        }
        guard Sodium.constantTimeEqual(expected, Array(file[Offset.checksum..<Offset.end])) else {
            throw SWCredError(.corruptHeader, "the header checksum does not match")
        }
        var r = ByteReader(Array(file[0..<length]), errorCode: .corruptHeader)
        _ = try r.take(magic.count + 2)
        // Step 4: ids, then caps.
        let keySourceByte = try r.u8()
        let kdfByte = try r.u8()
        let opsLimit = try r.u64()
        let memLimit = try r.u64()
        let salt = Array(try r.take(saltLength))
        let aeadByte = try r.u8()
        let nonce = Array(try r.take(XChaCha20Poly1305.nonceLength))
        let storeID = Array(try r.take(storeIDLength))
        let generation = try r.u64()
        let payloadLength = try r.u64()
        let mac = Array(try r.take(macLength))
        let checksum = Array(try r.take(checksumLength))
        guard let keySource = KeySourceID(rawValue: keySourceByte) else {
            throw SWCredError(.unsupportedFormat, "unknown key-source id \(keySourceByte)")
        }
        guard let kdf = KDFID(rawValue: kdfByte) else {
            throw SWCredError(.unsupportedFormat, "unknown KDF id \(kdfByte)")
        }
        guard let aead = AEADID(rawValue: aeadByte) else {
            throw SWCredError(.unsupportedFormat, "unknown AEAD id \(aeadByte)")
        }
        switch (keySource, kdf) {
        case (.keyFile, .none):
            guard opsLimit == 0, memLimit == 0, salt.allSatisfy({ $0 == 0 }) else {
                throw SWCredError(.unsupportedFormat, "a key-file store carries KDF parameters")
            }
        case (.passphrase, .argon2id13):
            let parameters = Argon2idParameters(opsLimit: opsLimit, memLimit: memLimit)
            guard parameters.isWithinReadCaps else {
                throw SWCredError(
                    .parametersOutOfBounds,
                    "KDF parameters outside the caps: opslimit \(opsLimit) (1–10), memlimit \(memLimit) bytes (8 KiB–1 GiB)"
                )
            }
        default:
            throw SWCredError(.unsupportedFormat, "key source \(keySourceByte) does not go with KDF \(kdfByte)")
        }
        let maxPayload = UInt64(max(0, min(maxFileSize, StoreLimits.fileSizeCeiling) - length - tagLength))
        guard payloadLength <= maxPayload else {
            throw SWCredError(
                .parametersOutOfBounds,
                "payload length \(payloadLength) is above the limit of \(maxPayload) bytes"
            )
        }
        // Step 5: exact file length.
        guard UInt64(fileSize) == UInt64(length) + payloadLength + UInt64(tagLength) else {
            throw SWCredError(
                .corruptPayload,
                "the file is \(fileSize) bytes; the header says \(UInt64(length) + payloadLength + UInt64(tagLength))"
            )
        }
        return StoreHeader(
            keySource: keySource, kdf: kdf, opsLimit: opsLimit, memLimit: memLimit, salt: salt, aead: aead,
            nonce: nonce, storeID: storeID, generation: generation, payloadLength: payloadLength, mac: mac,
            checksum: checksum
        )
    }

    /// The generation field of a file that starts like a format-1 header (for the compare-and-swap
    /// of the write path); `nil` when the bytes are too short or not format 1.
    static func peekGeneration(_ prefix: [UInt8]) -> UInt64? {
        guard prefix.count >= Offset.payloadLength, prefix[0..<magic.count].elementsEqual(magic) else { return nil }
        var value: UInt64 = 0
        for (shift, byte) in prefix[Offset.generation..<Offset.payloadLength].enumerated() {
            value |= UInt64(byte) << (8 * UInt64(shift))
        }
        return value
    }
}
