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
