import Foundation
import SWCredCore
import SWCredSodium
import Testing
@testable import SWCredStore

/// ``StoreSession/saveWebsitePassword(_:update:)`` and the "Passwords not saved" entry: the browser
/// path of `swcred add` as library calls, one key derivation per session (issue 20's `-U` bug).
@Suite("Website passwords through a store session")
struct WebsitePasswordSessionTests {
    struct Passphrase: PassphraseProvider {
        let asked: StoreSessionTests.Counter
        func passphrase() throws(SWCredError) -> SecureBytes {
            asked.increment()
            return try SecureBytes(copying: Array("pass".utf8))
        }
    }

    static func session(_ env: TestEnvironment, asked: StoreSessionTests.Counter, derivations: StoreSessionTests.Counter)
        -> StoreSession
    {
        var options = env.options()
        options.passphraseDerivationObserver = { derivations.increment() }
        return StoreSession(StoreSession.Configuration(
            path: env.storePath, keyFilePath: env.keyPath, passphrase: Passphrase(asked: asked), options: options,
            preset: .test))
    }

    static func website(_ password: String) -> InternetPasswordItem {
        InternetPasswordItem.websitePassword(server: "tacos.example", account: "alice", port: 0, secret: Array(password.utf8))
    }

    @Test("first save creates the store; the same key is keyExists without -U, updated with it, unchanged again")
    func saveOutcomes() throws {
        let env = TestEnvironment()
        let first = Self.session(env, asked: .init(), derivations: .init())
        #expect(try first.saveWebsitePassword(Self.website("one"), update: false) == .added)
        let asked = StoreSessionTests.Counter()
        let derivations = StoreSessionTests.Counter()
        let session = Self.session(env, asked: asked, derivations: derivations)
        #expect(try session.saveWebsitePassword(Self.website("two"), update: false) == .keyExists)
        #expect(try session.saveWebsitePassword(Self.website("two"), update: true) == .updated)
        #expect(try session.saveWebsitePassword(Self.website("two"), update: true) == .unchanged)
        #expect(try session.read().contents.items.first?.secret == Array("two".utf8))
        #expect(asked.count == 1 && derivations.count == 1)
    }

    @Test("store.md §2.2: a \"Passwords not saved\" entry refuses the server's saves; adding it twice is unchanged")
    func passwordsNotSaved() throws {
        let env = TestEnvironment()
        let session = Self.session(env, asked: .init(), derivations: .init())
        #expect(try session.addPasswordsNotSavedEntry(server: "tacos.example", port: 0) == .added)
        #expect(try session.addPasswordsNotSavedEntry(server: "tacos.example", port: 0) == .unchanged)
        #expect(try session.saveWebsitePassword(Self.website("one"), update: true) == .serverNeverSaved)
        #expect(try session.read().contents.items.count == 1)
    }
}

/// ``StoreSession/deviceSettings(autoFillEnabled:developerMode:managedDevice:)`` and
/// ``StoreSession/deleteItems(matching:notFound:)``: `swcred settings` and `swcred delete`.
@Suite("Settings and deletion through a store session")
struct SettingsAndDeleteSessionTests {
    @Test("store.md §2.4: without a store the settings are a fresh device's and nothing is created; a change creates it")
    func settings() throws {
        let env = TestEnvironment()
        let session = env.session()
        #expect(try session.deviceSettings() == DeviceSettings())
        #expect(!session.storeExists)
        let changed = try session.deviceSettings(autoFillEnabled: false, managedDevice: true)
        #expect(!changed.autoFillEnabled && changed.managedDevice && !changed.developerMode)
        #expect(try env.session().deviceSettings() == changed)
    }

    @Test("delete: the matching items go in one write; none matching is itemNotFound with the caller's words, nothing written")
    func delete() throws {
        let env = TestEnvironment()
        let session = env.session()
        #expect(try session.saveWebsitePassword(WebsitePasswordSessionTests.website("pw"), update: false) == .added)
        let generation = try session.read().generation
        do {
            _ = try session.deleteItems(matching: ItemQuery(server: "tacos.example", account: "bob", synchronizable: .any), notFound: "no bob")
            Issue.record("deleted an item that does not exist")
        } catch {
            #expect(error.code == .itemNotFound && error.message == "no bob")
        }
        #expect(try env.session().read().generation == generation)
        let removed = try session.deleteItems(matching: ItemQuery(server: "tacos.example", account: "alice", synchronizable: .any), notFound: "none")
        #expect(removed.map(\.account) == ["alice"])
        #expect(try env.session().read().contents.items.isEmpty)
    }
}
