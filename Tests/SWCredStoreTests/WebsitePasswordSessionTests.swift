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
