import Foundation
import SWCredCore
import SWCredSodium
import Testing
@testable import SWCredStore

/// T1–T3 in one process (tasks sharing an instance, and several instances), T15 against a lock
/// held by another process. Multi-process CLI runs are covered by the command's tests.
@Suite("T1, T2, T3, T15: concurrent writers and locking")
struct ConcurrencyTests {
    /// Runs `count` closures on their own threads (the store API is blocking by design).
    static func parallel(_ count: Int, _ body: @escaping @Sendable (Int) -> Result<Void, SWCredError>) async
        -> [Result<Void, SWCredError>]
    {
        await withTaskGroup(of: (Int, Result<Void, SWCredError>).self) { group in
            for index in 0..<count {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        Thread.detachNewThread { continuation.resume(returning: (index, body(index))) }
                    }
                }
            }
            var results = [Result<Void, SWCredError>](repeating: .success(()), count: count)
            for await (index, result) in group { results[index] = result }
            return results
        }
    }

    static func run(_ body: () throws -> Void) -> Result<Void, SWCredError> {
        do {
            try body()
            return .success(())
        } catch let error as SWCredError {
            return .failure(error)
        } catch {
            return .failure(SWCredError(.internalError, "\(error)"))
        }
    }

    @Test("T1: 20 and 50 parallel adds on one shared instance keep every item; generation grows by N", arguments: [20, 50])
    func sharedInstance(count: Int) async throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore()
        let results = await Self.parallel(count) { index in
            Self.run { try store.transaction { contents, now in try contents.add(item("h\(index).example", "u"), at: now) } }
        }
        let failures = results.compactMap { if case .failure(let e) = $0 { e } else { nil } }
        #expect(failures.isEmpty, "\(failures)")
        let snapshot = try store.snapshot()
        #expect(snapshot.contents.items.count == count)
        #expect(snapshot.generation == UInt64(1 + count))
    }

    @Test("T1: 20 parallel adds through 20 separate instances keep every item")
    func separateInstances() async throws {
        let env = TestEnvironment()
        _ = try env.createKeyFileStore()
        let options = env.options()
        let path = env.storePath
        let source = env.keySource
        let results = await Self.parallel(20) { index in
            Self.run {
                let store = try KeychainStore.open(at: path, keySource: source, options: options)
                try store.transaction { contents, now in try contents.add(item("h\(index).example", "u"), at: now) }
            }
        }
        #expect(results.allSatisfy { if case .success = $0 { true } else { false } })
        let snapshot = try KeychainStore.open(at: path, keySource: source, options: options).snapshot()
        #expect(snapshot.contents.items.count == 20)
        #expect(snapshot.generation == 21)
    }

    @Test("T2: 20 parallel adds of one key — exactly one succeeds, the rest get duplicateItem")
    func duplicateRace() async throws {
        let env = TestEnvironment()
        _ = try env.createKeyFileStore()
        let options = env.options()
        let path = env.storePath
        let source = env.keySource
        let results = await Self.parallel(20) { index in
            Self.run {
                let store = try KeychainStore.open(at: path, keySource: source, options: options)
                try store.transaction { contents, now in
                    try contents.add(item("same.example", "alice", password: "p\(index)"), at: now)
                }
            }
        }
        let successes = results.filter { if case .success = $0 { true } else { false } }.count
        let duplicates = results.filter { if case .failure(let e) = $0 { e.code == .duplicateItem } else { false } }.count
        #expect(successes == 1)
        #expect(duplicates == 19)
        #expect(try KeychainStore.open(at: path, keySource: source, options: options).snapshot().generation == 2)
    }

    @Test("T3: 20 parallel updates of one item — the final value is one of the inputs, generation grew by 20")
    func updateRace() async throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore()
        try store.transaction { contents, now in try contents.add(item("u.example", "alice", password: "initial"), at: now) }
        let results = await Self.parallel(20) { index in
            Self.run {
                try store.transaction { contents, now in
                    _ = try contents.update(
                        matching: ItemQuery(server: "u.example", account: "alice"),
                        with: ItemUpdate(secret: Array("value-\(index)".utf8)), at: now
                    )
                }
            }
        }
        #expect(results.allSatisfy { if case .success = $0 { true } else { false } })
        let snapshot = try store.snapshot()
        let final = try #require(snapshot.contents.items.first?.password)
        #expect((0..<20).map { "value-\($0)" }.contains(final))
        #expect(snapshot.generation == 2 + 20)
    }

    @Test("A change prepared against an earlier generation fails with conflict (exit 26)")
    func expectedGeneration() throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore()
        let snapshot = try store.snapshot()
        try store.transaction { contents, now in try contents.add(item("a.example", "a"), at: now) }
        let code = errorCode {
            try store.transaction(expectedGeneration: snapshot.generation) { contents, now in
                try contents.add(item("b.example", "b"), at: now)
            }
        }
        #expect(code == .conflict)
        try store.transaction(expectedGeneration: snapshot.generation + 1) { contents, now in
            try contents.add(item("b.example", "b"), at: now)
        }
    }

    @Test("A writer that ignored the lock between read and rename is caught by the compare-and-swap: conflict")
    func compareAndSwap() throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore()
        try store.transaction { contents, now in try contents.add(item("a.example", "a"), at: now) }
        var options = env.options()
        let path = env.storePath
        let source = env.keySource
        // At the hook (temporary file written and synced, lock held), a rogue writer that ignores
        // the lock replaces the file with a later generation.
        let header = try StoreHeader.parse(file: env.fileBytes(), maxFileSize: 1 << 24)
        let keys = try StoreKeys.derive(source: source, parameters: header.keyParameters, options: env.options())
        var rogueContents = try store.snapshot().contents
        try rogueContents.add(item("rogue.example", "r"), at: Date())
        let rogue = try KeychainStore.seal(
            plaintext: PayloadCodec.encode(rogueContents), parameters: header.keyParameters, storeID: header.storeID,
            generation: header.generation + 1, keys: keys, options: env.options()
        )
        let fired = LockedFlag()
        options.testHook = { point in
            guard point == .afterFsync, fired.setOnce() else { return }
            env.write(rogue)
        }
        let hooked = try KeychainStore.open(at: path, keySource: source, options: options)
        let code = errorCode { try hooked.transaction { contents, now in try contents.add(item("b.example", "b"), at: now) } }
        #expect(code == .conflict)
        let names = try FileManager.default.contentsOfDirectory(atPath: env.root + "/data")
        #expect(!names.contains { $0.contains(".tmp-") })
        let final = try store.snapshot().contents.items.map(\.server)
        #expect(final.contains("rogue.example") && !final.contains("b.example"))
    }

    /// Starts a shell that takes `flock -x` on the lock file through its own descriptor 9, says
    /// so, and becomes `sleep`: one process holds the lock, so SIGKILL to it releases the lock.
    static func holdLock(_ path: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec 9>>\"$1\"; flock -x 9; echo locked; exec sleep 60", "sh", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let line = pipe.fileHandleForReading.availableData
        #expect(String(decoding: line, as: UTF8.self).hasPrefix("locked"))
        return process
    }

    @Test(
        "T15: a lock held by another process gives busy (exit 22) with timeout 0 and after about 1 s; after SIGKILL the next writer proceeds",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock"))
    )
    func lockHeldByAnotherProcess() throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore()
        let before = env.fileBytes()
        let holder = try Self.holdLock(store.lockPath)
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL) } }
        for timeout in [Duration.zero, .seconds(1)] {
            var options = env.options(lockTimeout: timeout)
            options.lockTimeout = timeout
            let waiting = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: options)
            let start = ContinuousClock.now
            let code = errorCode { try waiting.transaction { contents, now in try contents.add(item("a.example", "a"), at: now) } }
            let elapsed = ContinuousClock.now - start
            #expect(code == .busy)
            // The wait honours the timeout (a lower bound; no upper bound is asserted).
            #expect(elapsed >= timeout)
        }
        // Readers take no lock.
        #expect(try store.snapshot().generation == 1)
        #expect(env.fileBytes() == before)
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        try store.transaction { contents, now in try contents.add(item("a.example", "a"), at: now) }
        #expect(try store.snapshot().contents.items.count == 1)
    }
}

final class LockedFlag: @unchecked Sendable {  // @unchecked: guarded by the lock.
    private let lock = NSLock()
    private var set = false
    func setOnce() -> Bool {
        lock.withLock {
            defer { set = true }
            return !set
        }
    }
}
