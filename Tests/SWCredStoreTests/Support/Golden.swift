import Foundation
import SWCredCore
import SWCredSodium
@testable import SWCredStore

/// The golden stores of T12: fixed passphrase or key, salt, nonce, store id and clock with the
/// test preset give fixed bytes.
enum Golden {
    static let passphraseText = "swcred golden passphrase"
    static let salt: [UInt8] = (0..<16).map { UInt8($0) }
    static let nonce: [UInt8] = (0..<24).map { UInt8(0x40 + $0) }
    static let storeID: [UInt8] = (0..<16).map { UInt8(0xA0 + $0) }
    static let keyFileBytes: [UInt8] = (0..<32).map { UInt8(0x01 + $0) }

    static let passphraseFixture = "golden-v1-passphrase-test.swcred"
    static let keyFileFixture = "golden-v1-keyfile.swcred"
    static let vectorsFixture = "corruption-vectors.json"

    /// `Fixtures/store/` at the repository root.
    static var fixturesDirectory: String {
        var url = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path + "/Fixtures/store"
    }

    static func fixture(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: fixturesDirectory + "/" + name).map { Array($0) }
    }

    static func options(_ env: TestEnvironment) -> StoreOptions {
        var options = env.options()
        options.fixedRandomness = FixedRandomness(salt: salt, nonce: nonce, storeID: storeID)
        return options
    }

    /// Fills a store the same way every time: one item, one negative entry, one association
    /// record, developer mode on.
    static func populate(_ store: KeychainStore) throws {
        try store.transaction { contents, now in
            try contents.add(item("example.com", "alice", password: "correct-horse"), at: now)
            try contents.add(.negativeEntry(server: "never.example"), at: now)
            try contents.upsertAssociationRecord(
                AssociationRecord(
                    service: .webcredentials, appID: "ABCDE12345.com.example.app", host: "example.com",
                    modes: [.developer], userApproval: .approved, siteApproval: .approved,
                    lastChecked: Date(timeIntervalSince1970: 1_750_000_000), nextCheck: .distantFuture,
                    retryCount: 2,
                    lastError: AssociationRecord.LastError(domain: "NSURLErrorDomain", code: -1001, message: "timed out"),
                    source: .downloaded,
                    lastFile: AssociationRecord.FileInfo(
                        digest: Array(repeating: 0x5A, count: 32), size: 321,
                        retrievedAt: Date(timeIntervalSince1970: 1_749_999_999.5)
                    )
                )
            )
            contents.settings.developerMode = true
        }
    }

    /// Creates the golden passphrase store in `env` and returns its bytes.
    static func makePassphraseStore(_ env: TestEnvironment) throws -> [UInt8] {
        let store = try KeychainStore.create(
            at: env.storePath, keySource: .passphrase(try passphrase(passphraseText)), preset: .test,
            options: options(env)
        )
        try populate(store)
        return env.fileBytes()
    }

    /// Writes the golden key file into `env` (mode 0600).
    static func installKeyFile(_ env: TestEnvironment) {
        env.write(keyFileBytes, to: env.keyPath)
        chmod(env.keyPath, 0o600)
    }

    /// Creates the golden key-file store in `env` and returns its bytes.
    static func makeKeyFileStore(_ env: TestEnvironment) throws -> [UInt8] {
        installKeyFile(env)
        let store = try KeychainStore.create(at: env.storePath, keySource: env.keySource, options: options(env))
        try populate(store)
        return env.fileBytes()
    }
}

/// Expected outcomes of T6, stored with the fixtures.
struct CorruptionVectors: Decodable {
    struct Range: Decodable {
        var from: Int
        /// Exclusive; -1 means the file length.
        var to: Int
        var expected: String
    }

    struct Append: Decodable {
        var count: Int
        var expected: String
    }

    var file: String
    var passphrase: String
    var flipMasks: [UInt8]
    var flips: [Range]
    var truncations: [Range]
    var appends: [Append]
}
