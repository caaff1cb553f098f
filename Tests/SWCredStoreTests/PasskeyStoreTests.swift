import Foundation
import SWCredCore
import SWCredSodium
import Testing
@testable import SWCredStore

/// Passkey items in the store: payload schema 2 (StoreFormat), its golden file, canonical
/// decoding, and passkeys through flips, truncations and concurrent writers.
@Suite("PK-8: passkey items in the store (payload schema 2)")
struct PasskeyStoreTests {
    static let fixture = "golden-v2-keyfile-passkeys.swcred"

    static func passkey(_ index: Int, rpID: String = "example.com") -> PasskeyItem {
        PasskeyItem(
            credentialID: (0..<20).map { UInt8(truncatingIfNeeded: index &+ $0) }, rpID: rpID, userHandle: Array("user-\(index)".utf8),
            userName: "user\(index)@example.com", displayName: "User \(index)",
            privateKey: (0..<32).map { UInt8(truncatingIfNeeded: 0xC0 &+ index &+ $0) })
    }

    /// The golden v1 key-file store plus two passkeys, written with the fixed randomness.
    static func makeStore(_ env: TestEnvironment) throws -> [UInt8] {
        Golden.installKeyFile(env)
        let store = try KeychainStore.create(at: env.storePath, keySource: env.keySource, options: Golden.options(env))
        try Golden.populate(store)
        try store.transaction { contents, now in
            try contents.addPasskey(passkey(1), at: now)
            try contents.addPasskey(passkey(2, rpID: "shop.example.org"), at: now)
        }
        return env.fileBytes()
    }

    @Test("PK-8: fixed key, nonce, store id and clock give the golden schema-2 bytes; it opens with both passkeys")
    func golden() throws {
        let env = TestEnvironment()
        let bytes = try Self.makeStore(env)
        if GoldenFileTests.writeFixtures {
            _ = FileManager.default.createFile(atPath: Golden.fixturesDirectory + "/" + Self.fixture, contents: Data(bytes))
        }
        let golden = try #require(Golden.fixture(Self.fixture))
        #expect(bytes == golden)
        let reader = TestEnvironment()
        Golden.installKeyFile(reader)
        reader.write(golden)
        let snapshot = try KeychainStore.open(at: reader.storePath, keySource: reader.keySource, options: reader.options()).snapshot()
        #expect(snapshot.contents.schemaVersion == 2)
        #expect(snapshot.contents.passkeys.map(\.rpID) == ["example.com", "shop.example.org"])
        #expect(snapshot.contents.passkeys.first?.privateKey == Self.passkey(1).privateKey)
        #expect(snapshot.contents.items.count == 2)
        // The private key never appears in the sealed file.
        #expect(!golden.contains(subsequence: Self.passkey(1).privateKey))
    }

    @Test("PK-8: contents without passkeys are still written as schema 1, byte for byte; schema 2 without passkeys is corrupt")
    func schemaChoice() throws {
        var contents = StoreContents(creationDate: Date(timeIntervalSince1970: 7))
        #expect(contents.encodedPayload().prefix(2) == [1, 0])
        try contents.addPasskey(Self.passkey(3), at: Date(timeIntervalSince1970: 8))
        let v2 = contents.encodedPayload()
        #expect(v2.prefix(2) == [2, 0])
        #expect(try StoreContents(payload: v2) == contents)
        try contents.deletePasskey(rpID: "example.com", credentialID: Self.passkey(3).credentialID)
        var forged = contents.encodedPayload()
        forged[0] = 2
        forged += [0, 0, 0, 0]
        #expect(throws: SWCredError(.corruptPayload, "")) { _ = try StoreContents(payload: forged) }
    }

    @Test("PK-8: same (RP ID, credential ID) is a duplicate; same (RP ID, user handle) replaces; limits hold")
    func uniqueness() throws {
        var contents = StoreContents(creationDate: Date(timeIntervalSince1970: 7))
        try contents.addPasskey(Self.passkey(1), at: Date(timeIntervalSince1970: 8))
        #expect(throws: SWCredError(.duplicateItem, "")) { try contents.addPasskey(Self.passkey(1), at: Date()) }
        var sameUser = Self.passkey(1)
        sameUser.credentialID = [9, 9, 9]
        let replaced = try contents.addPasskey(sameUser, at: Date(timeIntervalSince1970: 9))
        #expect(replaced?.credentialID == Self.passkey(1).credentialID)
        #expect(contents.passkeys.count == 1)
        var bad = Self.passkey(4)
        bad.privateKey = [1, 2, 3]
        #expect(throws: SWCredError(.invalidParameter, "")) { try contents.addPasskey(bad, at: Date()) }
        bad = Self.passkey(4)
        bad.userHandle = Array(repeating: 1, count: 65)
        #expect(throws: SWCredError(.invalidParameter, "")) { try contents.addPasskey(bad, at: Date()) }
        let shown = Self.passkey(5)
        #expect(!"\(shown)".contains("\(shown.privateKey)"))
        #expect(!String(reflecting: shown).contains("\(shown.privateKey)"))
        let child = Mirror(reflecting: shown).children.first { $0.label == "privateKey" }
        #expect(child?.value as? String == "<redacted>")
    }

    @Test("PK-8 (T6, T13): flipped, truncated and random schema-2 payloads never trap and never decode to another encoding")
    func payloadMutations() throws {
        var contents = StoreContents(creationDate: Date(timeIntervalSince1970: 7))
        try contents.add(InternetPasswordItem(server: "a.example", account: "a", secret: [1]), at: Date(timeIntervalSince1970: 8))
        for index in 0..<3 { try contents.addPasskey(Self.passkey(index), at: Date(timeIntervalSince1970: 9)) }
        let payload = contents.encodedPayload()
        checkPayloadMutations(payload, seed: 0x9A55)
    }

    @Test("PK-8 (T6): every byte of the schema-2 golden store flipped (0x01, 0xFF), every truncation and appends give the T6 vector's error and leave the file as it was")
    func fileCorruptionMatrix() throws {
        // The vectors are ranges of the file layout (magic, version, header, sealed payload), so
        // they hold for the passkey store too; only the file differs.
        let vectors = try CorruptionTests.loadVectors()
        let golden = try #require(Golden.fixture(Self.fixture))
        let env = TestEnvironment()
        Golden.installKeyFile(env)
        env.write(golden)
        let source = env.keySource
        let store = try KeychainStore.open(at: env.storePath, keySource: source, options: env.options())
        var checked = 0
        for range in vectors.flips {
            for offset in range.from..<(range.to < 0 ? golden.count : range.to) {
                for mask in vectors.flipMasks {
                    var bytes = golden
                    bytes[offset] ^= mask
                    CorruptionTests.check(
                        bytes, expected: CorruptionTests.code(range.expected), env: env, openStore: store, source: source,
                        label: "schema 2: flip \(mask) at \(offset)")
                    checked += 1
                }
            }
        }
        for range in vectors.truncations {
            for length in range.from..<(range.to < 0 ? golden.count : range.to) {
                CorruptionTests.check(
                    Array(golden.prefix(length)), expected: CorruptionTests.code(range.expected), env: env, openStore: store,
                    source: source, label: "schema 2: truncate to \(length)")
                checked += 1
            }
        }
        for append in vectors.appends {
            CorruptionTests.check(
                golden + Array(repeating: 0xA5, count: append.count), expected: CorruptionTests.code(append.expected), env: env,
                openStore: store, source: source, label: "schema 2: append \(append.count)")
            checked += 1
        }
        #expect(checked == golden.count * 3 + vectors.appends.count)
        env.write(golden)
        let snapshot = try store.snapshot()
        #expect(snapshot.contents.passkeys.count == 2)
        #expect(snapshot.contents.passkeys.first?.privateKey == Self.passkey(1).privateKey)
    }

    @Test("PK-8 (T1): 20 separate instances adding passkeys in parallel keep every passkey")
    func concurrentWriters() async throws {
        let env = TestEnvironment()
        _ = try env.createKeyFileStore()
        let options = env.options()
        let path = env.storePath
        let source = env.keySource
        let results = await ConcurrencyTests.parallel(20) { index in
            ConcurrencyTests.run {
                let store = try KeychainStore.open(at: path, keySource: source, options: options)
                try store.transaction { contents, now in _ = try contents.addPasskey(Self.passkey(index * 3), at: now) }
            }
        }
        #expect(results.allSatisfy { if case .success = $0 { true } else { false } })
        let snapshot = try KeychainStore.open(at: path, keySource: source, options: options).snapshot()
        #expect(snapshot.contents.passkeys.count == 20)
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard !subsequence.isEmpty, subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { Array(self[$0..<($0 + subsequence.count)]) == subsequence }
    }
}
