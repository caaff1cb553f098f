import Foundation
import SWCredCore
import SWCredSodium
import Testing
@testable import SWCredStore

@Suite("T16 rollback detection, T17 key-file checks")
struct RollbackAndKeyFileTests {
    @Test("T16: with rollback protection on, restoring an older copy gives rollbackDetected for reads and writes")
    func rollbackDetected() throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore(rollbackProtection: true)
        try store.transaction { contents, now in try contents.add(item("a.example", "a"), at: now) }
        let generationG = env.fileBytes()
        try store.transaction { contents, now in try contents.add(item("b.example", "b"), at: now) }
        #expect(store.generation == 3)
        env.write(generationG)
        let opened = errorCode { _ = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options()) }
        #expect(opened == .rollbackDetected)
        #expect(errorCode { _ = try store.snapshot() } == .rollbackDetected)
        let written = errorCode { try store.transaction { contents, now in try contents.add(item("c.example", "c"), at: now) } }
        #expect(written == .rollbackDetected)
        #expect(env.fileBytes() == generationG)
    }

    @Test("T16: with the override a warning is given and the next save writes a generation above the mark")
    func rollbackOverride() throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore(rollbackProtection: true)
        try store.transaction { contents, now in try contents.add(item("a.example", "a"), at: now) }
        let old = env.fileBytes()
        for account in ["b", "c", "d"] {
            try store.transaction { contents, now in try contents.add(item("x.example", account), at: now) }
        }
        #expect(store.generation == 5)
        env.write(old)
        let overriding = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options(allowRollback: true))
        #expect(env.warnings.all.contains { $0.contains("rolled-back") })
        #expect(try overriding.snapshot().contents.items.count == 1)
        try overriding.transaction { contents, now in try contents.add(item("e.example", "e"), at: now) }
        let snapshot = try overriding.snapshot()
        #expect(snapshot.generation == 6)
        // Without the override the store opens normally again.
        let normal = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options())
        #expect(try normal.snapshot().contents.items.map(\.server).sorted() == ["a.example", "e.example"])
    }

    @Test("T16: a missing state entry is trusted on first use; an unverifiable one is re-anchored with a warning")
    func stateEntryTrustAndReanchor() throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore(rollbackProtection: true)
        try store.transaction { contents, now in try contents.add(item("a.example", "a"), at: now) }
        let statePath = env.stateDirectory + "/" + Hex.encode(store.storeID) + ".state"
        #expect(FileManager.default.fileExists(atPath: statePath))
        #expect(env.mode(of: statePath) == 0o600)
        try FileManager.default.removeItem(atPath: statePath)
        _ = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options())
        #expect(FileManager.default.fileExists(atPath: statePath))
        var bytes = env.fileBytes(statePath)
        bytes[0] ^= 0xFF
        env.write(bytes, to: statePath)
        _ = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options())
        #expect(env.warnings.all.contains { $0.contains("re-anchored") })
        // Re-anchored at the current generation: an older copy is caught again.
    }

    @Test("T16: rollback protection is off by default: a fixture copied for each of several writers always opens, no state file")
    func unprotectedCopiesOpen() throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore()
        try store.transaction { contents, now in try contents.add(item("seed.example", "seed"), at: now) }
        let fixture = env.fileBytes()
        // Three "tests", each on a fresh copy of the same fixture, each writing to it.
        for account in ["a", "b", "c"] {
            env.write(fixture)
            let copy = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options())
            try copy.transaction { contents, now in try contents.add(item("x.example", account), at: now) }
            #expect(try copy.snapshot().contents.items.map(\.account).sorted() == ["seed", account].sorted())
        }
        #expect(env.warnings.all.isEmpty)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: env.stateDirectory)) ?? []
        #expect(entries.isEmpty, "a store without rollback protection wrote \(entries)")
    }

    @Test("T16: protection is a setting of the authenticated payload: turned on, an older copy is refused; turned off, accepted")
    func protectionTurnedOnAndOff() throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore()
        try store.transaction { contents, now in try contents.add(item("a.example", "a"), at: now) }
        try store.transaction { contents, _ in contents.rollbackProtection = true }
        let protectedCopy = env.fileBytes()
        try store.transaction { contents, now in try contents.add(item("b.example", "b"), at: now) }
        env.write(protectedCopy)
        #expect(errorCode { _ = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options()) }
            == .rollbackDetected)
        // A write with the override that changes nothing else accepts the copy (store.md §5) ...
        let accepting = try KeychainStore.open(
            at: env.storePath, keySource: env.keySource, options: env.options(allowRollback: true))
        try accepting.transaction { _, _ in }
        let reopened = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options())
        #expect(try reopened.snapshot().contents.items.map(\.server) == ["a.example"])
        // ... and turning protection off makes every older copy open again.
        let beforeOff = env.fileBytes()
        try reopened.transaction { contents, now in try contents.add(item("c.example", "c"), at: now) }
        try reopened.transaction { contents, _ in contents.rollbackProtection = false }
        let unprotected = env.fileBytes()
        env.write(beforeOff)
        #expect(errorCode { _ = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options()) }
            == .rollbackDetected)
        env.write(unprotected)
        try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options()).transaction {
            contents, now in try contents.add(item("d.example", "d"), at: now)
        }
    }

    @Test("T17: a missing key file is invalidKeyFile (exit 66)")
    func missingKeyFile() throws {
        let env = TestEnvironment()
        _ = try env.createKeyFileStore()
        try FileManager.default.removeItem(atPath: env.keyPath)
        let code = errorCode { _ = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options()) }
        #expect(code == .invalidKeyFile)
    }

    @Test("T17: wrong length, group-readable, a symlink and a directory are refused; no store is created with them")
    func badKeyFiles() throws {
        let cases: [(String, SWCredError.Code, (TestEnvironment) -> Void)] = [
            ("31 bytes", .invalidKeyFile, { env in env.write(Array(repeating: 7, count: 31), to: env.keyPath); chmod(env.keyPath, 0o600) }),
            ("33 bytes", .invalidKeyFile, { env in env.write(Array(repeating: 7, count: 33), to: env.keyPath); chmod(env.keyPath, 0o600) }),
            ("group-readable", .insecurePermissions, { env in env.write(Array(repeating: 7, count: 32), to: env.keyPath); chmod(env.keyPath, 0o640) }),
            ("world-readable", .insecurePermissions, { env in env.write(Array(repeating: 7, count: 32), to: env.keyPath); chmod(env.keyPath, 0o604) }),
            ("symlink", .invalidKeyFile, { env in
                let target = env.root + "/config/real.key"
                env.write(Array(repeating: 7, count: 32), to: target)
                chmod(target, 0o600)
                symlink(target, env.keyPath)
            }),
            ("symlink to another user's file", .invalidKeyFile, { env in symlink("/etc/passwd", env.keyPath) }),
            ("directory", .invalidKeyFile, { env in mkdir(env.keyPath, 0o700) }),
        ]
        for (name, expected, setUp) in cases {
            let env = TestEnvironment()
            setUp(env)
            let code = errorCode { _ = try env.createKeyFileStore() }
            #expect(code == expected, "\(name)")
            #expect(!FileManager.default.fileExists(atPath: env.storePath), "\(name): no store created")
        }
    }

    @Test("T17: KeyFile.create writes 32 random bytes with mode 0600 and never overwrites")
    func keyFileCreation() throws {
        let env = TestEnvironment()
        let path = env.root + "/new/dir/key"
        try KeyFile.create(at: path)
        #expect(env.mode(of: path) == 0o600)
        #expect(env.mode(of: env.root + "/new/dir") == 0o700)
        let first = env.fileBytes(path)
        #expect(first.count == 32)
        #expect(throws: SWCredError(.invalidKeyFile, "")) { try KeyFile.create(at: path) }
        #expect(env.fileBytes(path) == first)
        let other = env.root + "/new/dir/key2"
        try KeyFile.create(at: other)
        #expect(env.fileBytes(other) != first)
    }

    @Test("A store directory writable by group or others is insecurePermissions")
    func insecureDirectory() throws {
        let env = TestEnvironment()
        _ = try env.createKeyFileStore()
        chmod(env.root + "/data", 0o770)
        let code = errorCode { _ = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options()) }
        #expect(code == .insecurePermissions)
        chmod(env.root + "/data", 0o700)
    }

    @Test("Creating over an existing store is storeExists (exit 24) unless replacing")
    func storeExists() throws {
        let env = TestEnvironment()
        let first = try env.createKeyFileStore()
        let code = errorCode { _ = try env.createKeyFileStore() }
        #expect(code == .storeExists)
        let replaced = try KeychainStore.create(at: env.storePath, keySource: env.keySource, options: env.options(), replaceExisting: true)
        #expect(replaced.storeID != first.storeID)
        #expect(errorCode { _ = try KeychainStore.open(at: env.root + "/data/none", keySource: env.keySource, options: env.options()) } == .storeNotFound)
    }

    @Test("Rekey: passphrase to passphrase, to key file and back; store id kept, generation + 1; old key refused")
    func rekey() throws {
        let env = TestEnvironment()
        let store = try KeychainStore.create(
            at: env.storePath, keySource: .passphrase(try passphrase("one")), preset: .test, options: env.options()
        )
        try store.transaction { contents, now in try contents.add(item("a.example", "a"), at: now) }
        let id = store.storeID
        try store.rekey(to: .passphrase(try passphrase("two")), preset: .test)
        #expect(store.generation == 3)
        #expect(errorCode { _ = try KeychainStore.open(at: env.storePath, keySource: .passphrase(try passphrase("one")), options: env.options()) } == .wrongKey)
        let reopened = try KeychainStore.open(at: env.storePath, keySource: .passphrase(try passphrase("two")), options: env.options())
        #expect(reopened.storeID == id)
        #expect(try reopened.snapshot().contents.items.count == 1)
        // This instance keeps working with the new keys; the other instance sees a rekey.
        try store.transaction { contents, now in try contents.add(item("b.example", "b"), at: now) }
        try store.rekey(to: env.keySource)
        #expect(store.usesKeyFile)
        #expect(errorCode { _ = try reopened.snapshot() } == .wrongKey)
        let viaKey = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options())
        #expect(try viaKey.snapshot().contents.items.count == 2)
        #expect(try viaKey.snapshot().generation == 5)
        try viaKey.rekey(to: .passphrase(try passphrase("three")), preset: .test)
        #expect(viaKey.kdfParameters == KDFPreset.test.parameters)
    }

    @Test("Rekey never lowers the KDF parameters unless asked, and reports a lowering")
    func rekeyLowering() throws {
        let env = TestEnvironment()
        let store = try KeychainStore.create(
            at: env.storePath, keySource: .passphrase(try passphrase("one")), preset: .interactive, options: env.options()
        )
        #expect(throws: SWCredError(.invalidParameter, "")) { try store.rekey(to: .passphrase(try passphrase("two")), preset: .test) }
        #expect(store.generation == 1)
        try store.rekey(to: .passphrase(try passphrase("two")), preset: .test, allowWeakerParameters: true)
        #expect(env.warnings.all.contains { $0.contains("lowers") })
        #expect(store.kdfParameters == KDFPreset.test.parameters)
    }
}
