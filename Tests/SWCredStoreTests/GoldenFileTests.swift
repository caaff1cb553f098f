import Foundation
import SWCredCore
import SWCredSodium
import Testing
@testable import SWCredStore

@Suite("T12, T13: golden files and canonical encoding")
struct GoldenFileTests {
    /// Set SWCRED_WRITE_FIXTURES=1 to (re)write the golden files after a deliberate format change.
    static let writeFixtures = ProcessInfo.processInfo.environment["SWCRED_WRITE_FIXTURES"] == "1"

    @Test("T12: fixed passphrase, salt, nonce, store id and clock with the test preset give the golden bytes")
    func passphraseGolden() throws {
        let env = TestEnvironment()
        let bytes = try Golden.makePassphraseStore(env)
        if Self.writeFixtures {
            _ = FileManager.default.createFile(atPath: Golden.fixturesDirectory + "/" + Golden.passphraseFixture, contents: Data(bytes))
        }
        let golden = try #require(Golden.fixture(Golden.passphraseFixture))
        #expect(bytes == golden)
    }

    @Test("T12: fixed key file, nonce, store id and clock give the golden bytes")
    func keyFileGolden() throws {
        let env = TestEnvironment()
        let bytes = try Golden.makeKeyFileStore(env)
        if Self.writeFixtures {
            _ = FileManager.default.createFile(atPath: Golden.fixturesDirectory + "/" + Golden.keyFileFixture, contents: Data(bytes))
        }
        let golden = try #require(Golden.fixture(Golden.keyFileFixture))
        #expect(bytes == golden)
    }

    @Test("T12: the golden file opens with the passphrase and holds the expected contents")
    func goldenOpens() throws {
        let env = TestEnvironment()
        env.write(try #require(Golden.fixture(Golden.passphraseFixture)))
        let store = try KeychainStore.open(
            at: env.storePath, keySource: .passphrase(try passphrase(Golden.passphraseText)), options: env.options()
        )
        let snapshot = try store.snapshot()
        #expect(snapshot.generation == 2)
        #expect(snapshot.storeID == Golden.storeID)
        #expect(snapshot.contents.items.count == 2)
        #expect(snapshot.contents.passwordItems(matching: ItemQuery()).map(\.password) == ["correct-horse"])
        #expect(snapshot.contents.items(matching: ItemQuery(synchronizable: .any, isNegative: true)).count == 1)
        #expect(snapshot.contents.associationRecords.first?.nextCheck == .distantFuture)
        #expect(snapshot.contents.settings.developerMode)
        #expect(store.kdfParameters == KDFPreset.test.parameters)
    }

    @Test("T13: header and payload of every golden file parse and serialise to the same bytes")
    func canonicalRoundTrip() throws {
        for (name, source) in [
            (Golden.passphraseFixture, KeySource.passphrase(try passphrase(Golden.passphraseText))),
            (Golden.keyFileFixture, nil),
        ] {
            let env = TestEnvironment()
            let file = try #require(Golden.fixture(name))
            let header = try StoreHeader.parse(file: file, maxFileSize: StoreLimits.default.maxFileSize)
            #expect(header.encoded() == Array(file[0..<StoreHeader.length]))
            let keySource: KeySource
            if let source {
                keySource = source
            } else {
                Golden.installKeyFile(env)
                keySource = env.keySource
            }
            let keys = try StoreKeys.derive(source: keySource, parameters: header.keyParameters, options: env.options())
            let plaintext = try XChaCha20Poly1305.open(
                file[StoreHeader.length...], associatedData: Array(file[0..<StoreHeader.length]), nonce: header.nonce,
                key: keys.payload
            )
            let contents = try PayloadCodec.decode(plaintext, limits: .default)
            #expect(PayloadCodec.encode(contents) == plaintext)
            // Re-sealing with the same nonce reproduces the file exactly.
            var options = env.options()
            options.fixedRandomness = FixedRandomness(nonce: header.nonce)
            let resealed = try KeychainStore.seal(
                plaintext: PayloadCodec.encode(contents), parameters: header.keyParameters, storeID: header.storeID,
                generation: header.generation, keys: keys, options: options
            )
            #expect(resealed == file)
        }
    }

    @Test("T13: random contents survive encode, decode, encode unchanged")
    func randomRoundTrip() throws {
        var rng = SeededGenerator(seed: 0x5EED)
        for _ in 0..<50 {
            var contents = StoreContents(creationDate: Date(timeIntervalSince1970: Double(rng.next() % 2_000_000_000)))
            for index in 0..<Int(rng.next() % 20) {
                var entry = item("h\(index).example", randomString(&rng), password: randomString(&rng))
                entry.port = UInt16(truncatingIfNeeded: rng.next())
                entry.synchronizable = rng.next() % 2 == 0
                entry.path = randomString(&rng)
                if rng.next() % 5 == 0 { entry.isNegative = true }
                try contents.add(entry, at: Date(timeIntervalSince1970: Double(rng.next() % 4_000_000_000) / 1.7))
            }
            for index in 0..<Int(rng.next() % 5) {
                try contents.upsertAssociationRecord(
                    AssociationRecord(
                        service: AssociationRecord.Service.allCases[Int(rng.next() % 5)], appID: "T.\(index)",
                        host: "h\(index).example", port: rng.next() % 2 == 0 ? nil : 443, isWildcard: rng.next() % 2 == 0,
                        modes: rng.next() % 2 == 0 ? [] : [.managed], lastChecked: .distantPast,
                        nextCheck: Date(timeIntervalSince1970: Double(rng.next() % 1000)), retryCount: UInt32(truncatingIfNeeded: rng.next())
                    )
                )
            }
            let encoded = PayloadCodec.encode(contents)
            let decoded = try PayloadCodec.decode(encoded, limits: .default)
            #expect(decoded == contents)
            #expect(PayloadCodec.encode(decoded) == encoded)
        }
    }

    @Test("T13: mutated payloads and headers never trap and never decode to a different encoding")
    func mutationFuzz() throws {
        let env = TestEnvironment()
        let file = try #require(Golden.fixture(Golden.passphraseFixture))
        let header = try StoreHeader.parse(file: file, maxFileSize: StoreLimits.default.maxFileSize)
        let keys = try StoreKeys.derive(
            source: .passphrase(try passphrase(Golden.passphraseText)), parameters: header.keyParameters,
            options: env.options()
        )
        let plaintext = try XChaCha20Poly1305.open(
            file[StoreHeader.length...], associatedData: Array(file[0..<StoreHeader.length]), nonce: header.nonce,
            key: keys.payload
        )
        var rng = SeededGenerator(seed: 42)
        var accepted = 0
        for round in 0..<3000 {
            var mutated = plaintext
            switch round % 3 {
            case 0:
                for _ in 0..<(1 + Int(rng.next() % 3)) {
                    mutated[Int(rng.next() % UInt64(mutated.count))] = UInt8(truncatingIfNeeded: rng.next())
                }
            case 1:
                mutated = Array(mutated.prefix(Int(rng.next() % UInt64(mutated.count))))
            default:
                mutated = (0..<Int(rng.next() % 200)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            }
            do {
                let contents = try PayloadCodec.decode(mutated, limits: .default)
                accepted += 1
                #expect(PayloadCodec.encode(contents) == mutated)
            } catch {
                #expect([.corruptPayload, .unsupportedFormat, .limitExceeded].contains(error.code))
            }
            var headerBytes = file
            headerBytes[Int(rng.next() % UInt64(StoreHeader.length))] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
            #expect(throws: SWCredError.self) {
                _ = try StoreHeader.parse(file: headerBytes, maxFileSize: StoreLimits.default.maxFileSize)
            }
        }
        #expect(accepted < 3000)
    }
}

struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        // SplitMix64.
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func randomString(_ rng: inout SeededGenerator) -> String {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyzé日本 -_.")
    return String((0..<Int(rng.next() % 12)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
}

@Suite("Public byte-level entry points (for fuzzing)")
struct ByteLevelEntryPointTests {
    @Test("T13: StoreHeaderInfo(parsing:) and StoreContents(payload:) accept the golden bytes and reject garbage")
    func entryPoints() throws {
        let file = try #require(Golden.fixture(Golden.passphraseFixture))
        #expect(try StoreHeaderInfo(parsing: file).generation == 2)
        #expect(throws: SWCredError(.notAStore, "")) { _ = try StoreHeaderInfo(parsing: [1, 2, 3]) }
        var contents = StoreContents(creationDate: Date(timeIntervalSince1970: 5))
        try contents.add(item("a.example", "a"), at: Date(timeIntervalSince1970: 6))
        let payload = contents.encodedPayload()
        #expect(try StoreContents(payload: payload) == contents)
        #expect(throws: SWCredError(.corruptPayload, "")) { _ = try StoreContents(payload: payload + [0]) }
    }
}
