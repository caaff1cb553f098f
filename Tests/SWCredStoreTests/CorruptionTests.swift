import Foundation
import SWCredCore
import SWCredSodium
import Testing
@testable import SWCredStore

@Suite("T6, T7, T8: corruption, wrong keys and hostile headers are told apart")
struct CorruptionTests {
    static func code(_ name: String) -> SWCredError.Code {
        [SWCredError.Code.notAStore, .unsupportedFormat, .corruptHeader, .corruptPayload, .parametersOutOfBounds]
            .first { $0.name == name } ?? .internalError
    }

    static func loadVectors() throws -> CorruptionVectors {
        let data = try #require(Golden.fixture(Golden.vectorsFixture))
        return try JSONDecoder().decode(CorruptionVectors.self, from: Data(data))
    }

    /// Opens `bytes` with a fresh instance and through a transaction of an already-open instance;
    /// both must fail with `expected` and leave the file byte-identical.
    static func check(
        _ bytes: [UInt8], expected: SWCredError.Code, env: TestEnvironment, openStore: KeychainStore,
        source: KeySource, label: String
    ) {
        env.write(bytes)
        let opened = errorCode { _ = try KeychainStore.open(at: env.storePath, keySource: source, options: env.options()) }
        #expect(opened == expected, "open: \(label)")
        let written = errorCode {
            try openStore.transaction { contents, now in try contents.add(item("new.example", "x"), at: now) }
        }
        #expect(written == expected, "write: \(label)")
        #expect(env.fileBytes() == bytes, "file unchanged: \(label)")
    }

    @Test("T6: every byte flipped (0x01 and 0xFF), every truncation and appends give the vector's error")
    func corruptionMatrix() throws {
        let vectors = try Self.loadVectors()
        let golden = try #require(Golden.fixture(vectors.file))
        let env = TestEnvironment()
        let source = KeySource.passphrase(try passphrase(vectors.passphrase))
        env.write(golden)
        let store = try KeychainStore.open(at: env.storePath, keySource: source, options: env.options())
        var checked = 0
        for range in vectors.flips {
            let end = range.to < 0 ? golden.count : range.to
            for offset in range.from..<end {
                for mask in vectors.flipMasks {
                    var bytes = golden
                    bytes[offset] ^= mask
                    Self.check(
                        bytes, expected: Self.code(range.expected), env: env, openStore: store, source: source,
                        label: "flip \(mask) at \(offset)"
                    )
                    checked += 1
                }
            }
        }
        for range in vectors.truncations {
            let end = range.to < 0 ? golden.count : range.to
            for length in range.from..<end {
                Self.check(
                    Array(golden.prefix(length)), expected: Self.code(range.expected), env: env, openStore: store,
                    source: source, label: "truncate to \(length)"
                )
                checked += 1
            }
        }
        for append in vectors.appends {
            Self.check(
                golden + Array(repeating: 0xA5, count: append.count), expected: Self.code(append.expected), env: env,
                openStore: store, source: source, label: "append \(append.count)"
            )
            checked += 1
        }
        #expect(checked == golden.count * 2 + golden.count + 3)
        // The untouched file still opens.
        env.write(golden)
        #expect(try store.snapshot().contents.items.count == 2)
    }

    @Test("T7: a wrong passphrase, a wrong key file and the other key source give wrongKey")
    func wrongKey() throws {
        let env = TestEnvironment()
        _ = try KeychainStore.create(
            at: env.storePath, keySource: .passphrase(try passphrase("right")), preset: .test, options: env.options()
        )
        let wrongPassphrase = errorCode {
            _ = try KeychainStore.open(at: env.storePath, keySource: .passphrase(try passphrase("wrong")), options: env.options())
        }
        #expect(wrongPassphrase == .wrongKey)
        #expect(wrongPassphrase?.status == -25293)
        let otherSource = errorCode {
            try KeyFile.create(at: env.keyPath)
            _ = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options())
        }
        #expect(otherSource == .wrongKey)

        let env2 = TestEnvironment()
        _ = try env2.createKeyFileStore()
        let otherKeyPath = env2.root + "/config/other.key"
        try KeyFile.create(at: otherKeyPath)
        let wrongFile = errorCode {
            _ = try KeychainStore.open(at: env2.storePath, keySource: .keyFile(path: otherKeyPath), options: env2.options())
        }
        #expect(wrongFile == .wrongKey)
        let passphraseOnKeyFileStore = errorCode {
            _ = try KeychainStore.open(at: env2.storePath, keySource: .passphrase(try passphrase("x")), options: env2.options())
        }
        #expect(passphraseOnKeyFileStore == .wrongKey)
    }

    /// Rewrites header fields and recomputes the checksum, so the header looks intact.
    static func hostile(_ file: [UInt8], edit: (inout [UInt8]) -> Void) throws -> [UInt8] {
        var bytes = file
        edit(&bytes)
        let checksum = try BLAKE2b.hash(bytes[0..<StoreHeader.Offset.checksum])
        bytes.replaceSubrange(StoreHeader.Offset.checksum..<StoreHeader.Offset.end, with: checksum)
        return bytes
    }

    static func put(_ value: UInt64, at offset: Int, in bytes: inout [UInt8]) {
        for index in 0..<8 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
    }

    @Test("T8: hostile headers with a valid checksum are refused before any KDF runs")
    func hostileHeaders() throws {
        let golden = try #require(Golden.fixture(Golden.passphraseFixture))
        let cases: [(String, SWCredError.Code, (inout [UInt8]) -> Void)] = [
            ("memlimit 64 GiB", .parametersOutOfBounds, { Self.put(64 << 30, at: StoreHeader.Offset.memLimit, in: &$0) }),
            ("memlimit 1 GiB + 1", .parametersOutOfBounds, { Self.put((1 << 30) + 1, at: StoreHeader.Offset.memLimit, in: &$0) }),
            ("memlimit 8 KiB - 1", .parametersOutOfBounds, { Self.put(8191, at: StoreHeader.Offset.memLimit, in: &$0) }),
            ("opslimit 2^32", .parametersOutOfBounds, { Self.put(1 << 32, at: StoreHeader.Offset.opsLimit, in: &$0) }),
            ("opslimit 11", .parametersOutOfBounds, { Self.put(11, at: StoreHeader.Offset.opsLimit, in: &$0) }),
            ("opslimit 0", .parametersOutOfBounds, { Self.put(0, at: StoreHeader.Offset.opsLimit, in: &$0) }),
            ("payload length above the limit", .parametersOutOfBounds, {
                Self.put(UInt64(StoreLimits.default.maxFileSize), at: StoreHeader.Offset.payloadLength, in: &$0)
            }),
            ("payload length UInt64.max", .parametersOutOfBounds, { Self.put(.max, at: StoreHeader.Offset.payloadLength, in: &$0) }),
            ("payload length disagreeing with the file", .corruptPayload, {
                Self.put(10, at: StoreHeader.Offset.payloadLength, in: &$0)
            }),
            ("unknown key source", .unsupportedFormat, { $0[StoreHeader.Offset.keySource] = 9 }),
            ("unknown KDF", .unsupportedFormat, { $0[StoreHeader.Offset.kdf] = 7 }),
            ("unknown AEAD", .unsupportedFormat, { $0[StoreHeader.Offset.aead] = 3 }),
            ("key file with KDF", .unsupportedFormat, { $0[StoreHeader.Offset.keySource] = 1 }),
        ]
        for (name, expected, edit) in cases {
            let env = TestEnvironment()
            env.write(try Self.hostile(golden, edit: edit))
            let start = ContinuousClock.now
            // A KDF could not run anyway: with these parameters it would take minutes or fail.
            let code = errorCode {
                _ = try KeychainStore.open(at: env.storePath, keySource: .passphrase(try passphrase("p")), options: env.options())
            }
            let elapsed = ContinuousClock.now - start
            #expect(code == expected, "\(name)")
            #expect(elapsed < .seconds(1), "\(name) took \(elapsed)")
        }
    }

    @Test("T6: a header MAC made with another key reads as wrongKey, damage elsewhere as corruption")
    func macVersusChecksum() throws {
        let golden = try #require(Golden.fixture(Golden.passphraseFixture))
        let env = TestEnvironment()
        // Flip a generation byte and fix the checksum: the MAC no longer matches → wrongKey.
        env.write(try Self.hostile(golden) { $0[StoreHeader.Offset.generation] ^= 0x04 })
        let code = errorCode {
            _ = try KeychainStore.open(
                at: env.storePath, keySource: .passphrase(try passphrase(Golden.passphraseText)), options: env.options()
            )
        }
        #expect(code == .wrongKey)
    }
}

@Suite("Payload schema versions")
struct PayloadSchemaTests {
    @Test("A newer payload schema is unsupportedFormat (exit 25) and the file is never rewritten; schema 0 is corrupt")
    func newerSchema() throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore()
        let header = try StoreHeader.parse(file: env.fileBytes(), maxFileSize: 1 << 24)
        let keys = try StoreKeys.derive(source: env.keySource, parameters: header.keyParameters, options: env.options())
        for (schema, expected) in [(StoreContents.currentSchemaVersion + 1, SWCredError.Code.unsupportedFormat), (0, .corruptPayload)] {
            var plaintext = PayloadCodec.encode(try store.snapshot().contents)
            plaintext[0] = UInt8(schema & 0xFF)
            plaintext[1] = UInt8(schema >> 8)
            let file = try KeychainStore.seal(
                plaintext: plaintext, parameters: header.keyParameters, storeID: header.storeID,
                generation: header.generation, keys: keys, options: env.options()
            )
            env.write(file)
            #expect(errorCode { _ = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options()) } == expected)
            #expect(errorCode { try store.transaction { contents, now in try contents.add(item("a.example", "a"), at: now) } } == expected)
            #expect(env.fileBytes() == file)
            // Restore a valid file for the next round.
            env.write(try KeychainStore.seal(
                plaintext: PayloadCodec.encode(StoreContents(creationDate: Date(timeIntervalSince1970: 0))),
                parameters: header.keyParameters, storeID: header.storeID, generation: header.generation, keys: keys,
                options: env.options()
            ))
        }
    }
}
