import Foundation
import SWCredCore
import SWCredSodium
import Testing
@testable import SWCredStore

@Suite("T9 file modes, T5 in-process fault injection, stray temporary files")
struct FileModeAndFaultTests {
    // The umask is process-wide and the whole package's tests share one process, so this test
    // only tightens it (022, 077): a permissive 000 here could make another suite's directories
    // world-writable mid-test. Umask 000 is covered in child processes by
    // Tests/swcredTests/StoreFileModeTests.swift, and the code path is the same: every file is
    // created with mode 0600 and then fchmod'ed, every directory mkdir'ed 0700 and then chmod'ed.
    @Test("T9: under umask 022 and 077 every file the library creates is 0600 and created directories 0700")
    func modesUnderUmask() throws {
        for mask: mode_t in [0o022, 0o077] {
            let env = TestEnvironment()
            let old = umask(mask)
            defer { umask(old) }
            let storePath = env.root + "/made/data/keychain.swcred"
            let keyPath = env.root + "/made/config/keychain.key"
            let source = KeySource.keyFile(path: keyPath)
            // init (key file + store + lock + state), add, update, rekey.
            let store = try KeychainStore.create(
                at: storePath, keySource: source, options: env.options(), rollbackProtection: true)
            try store.transaction { contents, now in try contents.add(item("a.example", "a"), at: now) }
            try store.transaction { contents, now in
                _ = try contents.update(matching: ItemQuery(server: "a.example"), with: ItemUpdate(label: "x"), at: now)
            }
            try store.rekey(to: .passphrase(try passphrase("pp")), preset: .test)
            let stateFile = env.stateDirectory + "/" + Hex.encode(store.storeID) + ".state"
            for file in [storePath, storePath + ".lock", keyPath, stateFile, stateFile + ".lock"] {
                #expect(env.mode(of: file) == 0o600, "umask \(String(mask, radix: 8)): \(file)")
            }
            for directory in [env.root + "/made", env.root + "/made/data", env.root + "/made/config", env.stateDirectory] {
                #expect(env.mode(of: directory) == 0o700, "umask \(String(mask, radix: 8)): \(directory)")
            }
        }
    }

    @Test("T9: a pre-existing 0644 keychain file becomes 0600 on rewrite")
    func rewriteFixesMode() throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore()
        chmod(env.storePath, 0o644)
        try store.transaction { contents, now in try contents.add(item("a.example", "a"), at: now) }
        #expect(env.mode(of: env.storePath) == 0o600)
    }

    @Test("T9: the store sources never use Foundation's atomic writes or FileManager replace APIs")
    func noAtomicWrites() throws {
        var root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        for _ in 0..<3 { root.deleteLastPathComponent() }
        var checked = 0
        for module in ["Sources/SWCredStore", "Sources/SWCredSodium"] {
            let base = root.path + "/" + module
            let enumerator = FileManager.default.enumerator(atPath: base)
            while let relative = enumerator?.nextObject() as? String {
                guard relative.hasSuffix(".swift") else { continue }
                let text = try String(contentsOfFile: base + "/" + relative, encoding: .utf8)
                for banned in [".atomic", "replaceItem", "replaceItemAt", "write(to:", "write(toFile:"] {
                    #expect(!text.contains(banned), "\(module)/\(relative) uses \(banned)")
                }
                checked += 1
            }
        }
        #expect(checked > 10)
    }

    /// Counts the system calls of one add, so that every N along the write path can be failed.
    static func callCounts(env: TestEnvironment, store: KeychainStore) throws -> [POSIX.Call: Int] {
        let counter = FaultInjection()
        try counter.run {
            try store.transaction { contents, now in try contents.add(item("count.example", "c"), at: now) }
        }
        try store.transaction { contents, _ in try contents.delete(matching: ItemQuery(server: "count.example")) }
        return counter.callCounts
    }

    @Test(
        "T5: failing the N-th open, write, fsync, rename or flock with EIO, ENOSPC or EACCES gives ioFailure naming the step; old file intact unless the rename happened; no temporary file left",
        arguments: [EIO, ENOSPC, EACCES]
    )
    func faultInjection(errnoValue: Int32) throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore()
        try store.transaction { contents, now in try contents.add(item("base.example", "b"), at: now) }
        let counts = try Self.callCounts(env: env, store: store)
        var injected = 0
        for call in [POSIX.Call.open, .write, .fsync, .rename, .flock, .read, .close, .fchmod] {
            let total = counts[call] ?? 0
            for nth in stride(from: 1, through: total, by: 1) {
                let old = env.fileBytes()
                let fault = FaultInjection(failing: call, nth: nth, errno: errnoValue)
                let result = Result<Void, any Error> {
                    try fault.run {
                        try store.transaction { contents, now in try contents.add(item("new.example", "n"), at: now) }
                    }
                }
                #expect(fault.fired, "\(call) #\(nth) did not fire")
                injected += 1
                guard case .failure(let raw) = result, let error = raw as? SWCredError else {
                    Issue.record("\(call) #\(nth) with errno \(errnoValue): the write reported success")
                    continue
                }
                #expect(error.code == .ioFailure, "\(call) #\(nth): \(error)")
                #expect(error.message.contains("errno \(errnoValue)"), "\(error.message)")
                let expectedStatus = errnoValue == ENOSPC ? -34 : errnoValue == EACCES ? -61 : -36
                #expect(error.code.status == expectedStatus)
                let names = try FileManager.default.contentsOfDirectory(atPath: env.root + "/data")
                #expect(!names.contains { $0.contains(".tmp-") }, "\(call) #\(nth): temporary file left")
                let now = env.fileBytes()
                if now == old {
                    // Failed before the rename: old file byte-for-byte intact, still opens.
                    #expect(try store.snapshot().contents.item(forKey: item("new.example", "n").key) == nil)
                } else {
                    // Failed after the rename (directory fsync or the rollback mark): the new
                    // file is complete and opens.
                    let message = error.message
                    #expect(message.contains("keychain: fsync directory") || message.hasPrefix("state file"), "\(message)")
                    try store.transaction { contents, _ in try contents.delete(matching: ItemQuery(server: "new.example")) }
                }
            }
        }
        #expect(injected >= 10)
        // The store is healthy afterwards.
        try store.transaction { contents, now in try contents.add(item("after.example", "a"), at: now) }
    }

    @Test("Temporary files left by a killed writer are removed by the next writer; other names are untouched")
    func strayTemporaryFiles() throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore()
        let stray = env.root + "/data/.keychain.swcred.tmp-0123456789ab"
        let unrelated = env.root + "/data/.keychain.swcred.tmp-notours"
        let other = env.root + "/data/notes.txt"
        for path in [stray, unrelated, other] { env.write([1, 2, 3], to: path) }
        try store.transaction { contents, now in try contents.add(item("a.example", "a"), at: now) }
        #expect(!FileManager.default.fileExists(atPath: stray))
        #expect(FileManager.default.fileExists(atPath: unrelated))
        #expect(FileManager.default.fileExists(atPath: other))
    }

    @Test("Test hook points are reached in write-path order")
    func hookOrder() throws {
        let env = TestEnvironment()
        let recorder = WarningRecorder()
        var options = env.options()
        options.testHook = { recorder.record($0.rawValue) }
        _ = try env.createKeyFileStore()
        let store = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: options)
        try store.transaction { contents, now in try contents.add(item("a.example", "a"), at: now) }
        #expect(recorder.all == ["after-lock", "after-temp-write", "after-fsync", "after-rename", "before-dirsync"])
    }
}
