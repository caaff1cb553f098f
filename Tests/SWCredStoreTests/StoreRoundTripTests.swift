import Foundation
import SWCredCore
import SWCredSodium
import Testing
@testable import SWCredStore

@Suite("Store create, open, write, read")
struct StoreRoundTripTests {
    @Test("A key-file store keeps items across instances")
    func keyFileRoundTrip() throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore()
        #expect(store.generation == 1)
        try store.transaction { contents, now in
            try contents.add(item("example.com", "alice", password: "s3cret"), at: now)
        }
        #expect(store.generation == 2)
        let reopened = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options())
        let snapshot = try reopened.snapshot()
        #expect(snapshot.generation == 2)
        #expect(snapshot.contents.items.count == 1)
        #expect(snapshot.contents.items.first?.password == "s3cret")
        #expect(snapshot.contents.items.first?.creationDate == env.clock.now().roundedToMilliseconds)
        #expect(snapshot.storeID == store.storeID)
    }

    @Test("A passphrase store with the test preset opens with the same passphrase only")
    func passphraseRoundTrip() throws {
        let env = TestEnvironment()
        let store = try KeychainStore.create(
            at: env.storePath, keySource: .passphrase(try passphrase("correct horse")), preset: .test,
            options: env.options()
        )
        try store.transaction { contents, now in try contents.add(item("a.example", "bob"), at: now) }
        let again = try KeychainStore.open(
            at: env.storePath, keySource: .passphrase(try passphrase("correct horse")), options: env.options()
        )
        #expect(try again.snapshot().contents.items.count == 1)
        #expect(again.kdfParameters == KDFPreset.test.parameters)
    }

    @Test("A transaction that changes nothing writes nothing")
    func noChangeNoWrite() throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore()
        let before = env.fileBytes()
        let count = try store.transaction { contents, _ in contents.items.count }
        #expect(count == 0)
        #expect(env.fileBytes() == before)
        #expect(store.generation == 1)
    }
}

@Suite("Open and read in one pass; default paths")
struct OpenAndReadTests {
    @Test("openAndRead returns the same contents as a later snapshot")
    func openAndRead() throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore()
        try store.transaction { contents, now in try contents.add(item("a.example", "a"), at: now) }
        let (opened, snapshot) = try KeychainStore.openAndRead(at: env.storePath, keySource: env.keySource, options: env.options())
        #expect(snapshot.contents == (try opened.snapshot().contents))
        #expect(snapshot.generation == 2)
        #expect(opened.path == env.storePath)
    }

    @Test("openOrCreate creates once, then opens")
    func openOrCreate() throws {
        let env = TestEnvironment()
        let first = try KeychainStore.openOrCreate(at: env.storePath, keySource: env.keySource, options: env.options())
        #expect(first.created)
        let second = try KeychainStore.openOrCreate(at: env.storePath, keySource: env.keySource, options: env.options())
        #expect(!second.created)
        #expect(second.store.storeID == first.store.storeID)
    }

    @Test("Default paths follow XDG with home fallbacks; explicit values and SWCRED_* variables win")
    func defaultPaths() throws {
        let xdg = ["HOME": "/home/u", "XDG_DATA_HOME": "/d", "XDG_CONFIG_HOME": "/c", "XDG_STATE_HOME": "/s"]
        #expect(try StorePaths.storePath(environment: xdg) == "/d/swcred/keychain.swcred")
        #expect(try StorePaths.keyFilePath(environment: xdg) == "/c/swcred/keychain.key")
        #expect(try StorePaths.stateDirectory(environment: xdg) == "/s/swcred")
        let home = ["HOME": "/home/u", "XDG_DATA_HOME": "relative"]
        #expect(try StorePaths.storePath(environment: home) == "/home/u/.local/share/swcred/keychain.swcred")
        #expect(try StorePaths.keyFilePath(environment: home) == "/home/u/.config/swcred/keychain.key")
        #expect(try StorePaths.stateDirectory(environment: home) == "/home/u/.local/state/swcred")
        #expect(try StorePaths.storePath(environment: ["SWCRED_STORE": "/x/s", "HOME": "/h"]) == "/x/s")
        #expect(try StorePaths.storePath(explicit: "/e", environment: ["SWCRED_STORE": "/x/s"]) == "/e")
        #expect(try StorePaths.keyFilePath(environment: ["SWCRED_KEY_FILE": "/k"]) == "/k")
        #expect(throws: SWCredError(.invalidParameter, "")) { _ = try StorePaths.storePath(environment: [:]) }
        #expect(StorePaths.lockPath(forStore: "/d/keychain.swcred") == "/d/keychain.swcred.lock")
    }
}

@Suite("Header inspection without a key")
struct InspectTests {
    @Test("inspect tells a passphrase store from a key-file store and reports its parameters")
    func inspect() throws {
        let env = TestEnvironment()
        env.write(try #require(Golden.fixture(Golden.passphraseFixture)))
        let info = try KeychainStore.inspect(at: env.storePath)
        #expect(!info.usesKeyFile)
        #expect(info.kdfParameters == KDFPreset.test.parameters)
        #expect(info.generation == 2)
        #expect(info.storeID == Golden.storeID)
        env.write(try #require(Golden.fixture(Golden.keyFileFixture)))
        let keyInfo = try KeychainStore.inspect(at: env.storePath)
        #expect(keyInfo.usesKeyFile && keyInfo.kdfParameters == nil)
        env.write(Array("not a store".utf8))
        #expect(throws: SWCredError(.notAStore, "")) { _ = try KeychainStore.inspect(at: env.storePath) }
        #expect(throws: SWCredError(.storeNotFound, "")) { _ = try KeychainStore.inspect(at: env.root + "/missing") }
        #expect(!KeySource.passphrase(try passphrase("sentinel-pw")).description.contains("sentinel"))
    }
}
