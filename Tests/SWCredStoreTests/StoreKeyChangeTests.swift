import Foundation
import SWCredCore
import SWCredSodium
import Testing
@testable import SWCredStore

/// ``StoreSession/create(preset:replaceExisting:)`` and ``StoreSession/rekey(to:preset:allowWeakerParameters:)``:
/// the flows of `swcred init` and `swcred rekey` (store.md §4, §4.7).
@Suite("Store session: create and rekey")
struct StoreKeyChangeTests {
    @Test("store.md §4: create makes the missing key file, says so, and refuses an existing store")
    func createWithKeyFile() throws {
        let env = TestEnvironment()
        let created = try env.session().create(preset: .test, replaceExisting: false)
        #expect(created.path == env.storePath)
        #expect(created.keyFile == env.keyPath)
        #expect(created.keyFileCreated)
        #expect(!created.usesPassphrase)
        #expect(FileManager.default.fileExists(atPath: env.keyPath))
        #expect(throws: SWCredError(.storeExists, "")) {
            try env.session().create(preset: .test, replaceExisting: false)
        }
        let replaced = try env.session().create(preset: .test, replaceExisting: true)
        #expect(!replaced.keyFileCreated, "an existing key file is used, never made again")
        #expect(try env.session().read().contents.items.isEmpty)
    }

    @Test("store.md §4.7: rekey moves a key-file store to a passphrase, next generation, contents kept")
    func rekeyToPassphrase() throws {
        let env = TestEnvironment()
        let session = env.session()
        let created = try session.create(preset: .test, replaceExisting: false)
        try session.modify(createIfMissing: false) { (contents: inout StoreContents, now: Date) throws(SWCredError) in
            try contents.add(
                InternetPasswordItem.websitePassword(
                    server: "tacos.example", account: "alice", port: 0, secret: Array("pw".utf8)),
                at: now)
        }
        let passphrase = try SecureBytes(copying: Array("new passphrase".utf8))
        let rekeyed = try session.rekey(to: .passphrase(passphrase), preset: .test, allowWeakerParameters: false)
        #expect(rekeyed.usesPassphrase)
        #expect(rekeyed.keyFile == nil)
        #expect(rekeyed.generation > created.generation)
        let reopened = StoreSession(StoreSession.Configuration(
            path: env.storePath, keyFilePath: env.keyPath,
            passphrase: FixedPassphrase(text: "new passphrase"), options: env.options()))
        #expect(try reopened.read().contents.items.map(\.account) == ["alice"])
    }

    struct FixedPassphrase: PassphraseProvider {
        let text: String
        func passphrase() throws(SWCredError) -> SecureBytes { try SecureBytes(copying: Array(text.utf8)) }
    }
}
