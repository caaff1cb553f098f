import Foundation
import SWCredCore
import SWCredSodium
import Testing
@testable import SWCredStore

/// ``StoreSession``: the key material is read once and Argon2id runs once per session, however
/// many reads and writes the session makes (issue 20: `add -U` opened the store twice).
@Suite("Store session")
struct StoreSessionTests {
    /// Counts calls (the provider's reads, the KDF runs).
    final class Counter: @unchecked Sendable {  // @unchecked: guarded by the lock.
        private let lock = NSLock()
        private var value = 0
        func increment() { lock.withLock { value += 1 } }
        var count: Int { lock.withLock { value } }
    }

    /// A passphrase provider that counts how often it is asked.
    struct CountingPassphrase: PassphraseProvider {
        let text: String
        let asked: Counter
        func passphrase() throws(SWCredError) -> SecureBytes {
            asked.increment()
            return try SecureBytes(copying: Array(text.utf8))
        }
    }

    private static func session(
        _ env: TestEnvironment, passphrase: String?, fallback: String? = nil,
        asked: Counter, derivations: Counter, created: Counter? = nil
    ) -> StoreSession {
        var options = env.options()
        options.passphraseDerivationObserver = { derivations.increment() }
        return StoreSession(StoreSession.Configuration(
            path: env.storePath, keyFilePath: env.keyPath,
            passphrase: passphrase.map { CountingPassphrase(text: $0, asked: asked) },
            passphraseFallback: fallback.map { CountingPassphrase(text: $0, asked: asked) },
            options: options, preset: .test,
            onCreate: { _ in created?.increment() }))
    }

    @Test("add-if-absent that finds the key, then the update: one passphrase read, one Argon2id run")
    func updateAfterAddIfAbsentDerivesOnce() throws {
        let env = TestEnvironment()
        let setup = Counter()
        let first = Self.session(env, passphrase: "pass", asked: setup, derivations: Counter())
        try first.modify(createIfMissing: true) { (contents: inout StoreContents, now: Date) throws(SWCredError) in
            try contents.add(item("tacos.example", "alice", password: "old"), at: now)
        }

        let asked = Counter()
        let derivations = Counter()
        let session = Self.session(env, passphrase: "pass", asked: asked, derivations: derivations)
        let outcome = try session.addIfAbsent(item("tacos.example", "alice", password: "new"), refusingServersNeverSaved: true)
        #expect(outcome == .keyExists)
        try session.modify(createIfMissing: true) { (contents: inout StoreContents, now: Date) throws(SWCredError) in
            try contents.update(
                matching: ItemQuery(server: "tacos.example", account: "alice"),
                with: ItemUpdate(secret: Array("new".utf8)), at: now)
        }
        let read = try session.read()
        #expect(read.contents.items.first?.secret == Array("new".utf8))
        #expect(asked.count == 1, "the passphrase provider was asked \(asked.count) times")
        #expect(derivations.count == 1, "Argon2id ran \(derivations.count) times")
    }

    @Test("create on first write: reported once; the created store serves the next read without a KDF run")
    func createOnFirstWrite() throws {
        let env = TestEnvironment()
        let asked = Counter()
        let derivations = Counter()
        let created = Counter()
        let session = Self.session(env, passphrase: "pass", asked: asked, derivations: derivations, created: created)
        #expect(try session.addIfAbsent(item("a.example", "u"), refusingServersNeverSaved: true) == nil)
        #expect(!session.storeExists)
        try session.modify(createIfMissing: true) { (contents: inout StoreContents, now: Date) throws(SWCredError) in
            try contents.add(item("a.example", "u"), at: now)
        }
        #expect(created.count == 1)
        #expect(try session.read().contents.items.count == 1)
        #expect(asked.count == 1)
        #expect(derivations.count == 1)
    }

    @Test("the default key file on a passphrase store asks the fallback once; an explicit key file never does")
    func passphraseFallback() throws {
        let env = TestEnvironment()
        let setup = Self.session(env, passphrase: "pass", asked: Counter(), derivations: Counter())
        _ = try setup.storeCreatingIfMissing()

        let asked = Counter()
        let session = Self.session(env, passphrase: nil, fallback: "pass", asked: asked, derivations: Counter())
        #expect(try session.read().contents.items.isEmpty)
        _ = try session.store()
        #expect(asked.count == 1)

        var explicit = session.configuration
        explicit.keyFileIsExplicit = true
        let refused = StoreSession(explicit)
        #expect(throws: SWCredError(.wrongKey, "")) { try refused.read() }
    }

    @Test("no store and no createIfMissing: storeNotFound, and nothing is created")
    func missingStore() throws {
        let env = TestEnvironment()
        let session = Self.session(env, passphrase: nil, asked: Counter(), derivations: Counter())
        #expect(throws: SWCredError(.storeNotFound, "")) {
            try session.modify(createIfMissing: false) { (_: inout StoreContents, _: Date) throws(SWCredError) in }
        }
        #expect(!session.storeExists)
    }
}
