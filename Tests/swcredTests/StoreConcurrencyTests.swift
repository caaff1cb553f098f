import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// store.md §7 and T1/T2/T15 with real processes: many `swcred` processes write one key-file
/// store at once; nothing is lost, duplicates are told apart, a held lock gives `busy`.
@Suite("Store CLI: concurrent processes", .serialized)
struct StoreConcurrencyTests {
    @Test("T1: 16 processes × 50 sequential adds on one key-file store → exactly 800 items, every process exit 0")
    func sixteenTimesFifty() async throws {
        let sandbox = try StoreSandbox("swcred-t1")
        // Create the store first so that the children measure concurrent writes, not creation.
        #expect(try await sandbox.run(["init"]).status == 0)
        let generationBefore = try await Self.generation(sandbox)
        // Each child adds 50 distinct items one after another; a failure is reported and counted,
        // and the child's exit status is the number of failed adds (0 when all succeeded).
        let script = """
            fails=0
            i=1
            while [ $i -le 50 ]; do
                printf 'pw-%s-%s\\n' "$W" "$i" | "$SWCRED" add "w$W.example" "user$i" --password-stdin --lock-timeout 120 >/dev/null \
                    || { echo "add w$W user$i failed with $?" >&2; fails=$((fails+1)); }
                i=$((i+1))
            done
            exit $fails
            """
        let children = try (1...16).map { worker in
            try sandbox.startShell(script, environment: ["W": String(worker)])
        }
        let results = children.map { $0.wait() }
        for (index, result) in results.enumerated() {
            #expect(result.status == 0, "worker \(index + 1) had \(result.status) failed adds: \(result.stderr)")
        }
        let items = try await sandbox.listItems()
        #expect(items.count == 800)
        let keys = Set(items.compactMap { item -> String? in
            guard let server = item["server"] as? String, let account = item["account"] as? String else { return nil }
            return server + "/" + account
        })
        #expect(keys.count == 800)
        for worker in [1, 8, 16] {
            #expect(keys.contains("w\(worker).example/user1") && keys.contains("w\(worker).example/user50"))
        }
        // One generation per add: no write was lost or merged (store.md T1).
        #expect(try await Self.generation(sandbox) == generationBefore + 800)
        // Spot-check passwords: each is the one its writer gave.
        #expect(try await sandbox.run(["show", "w16.example", "user50"]).stdout == "pw-16-50\n")
        #expect(try await sandbox.run(["show", "w3.example", "user17"]).stdout == "pw-3-17\n")
    }

    @Test("T2: N parallel adds of one key → exactly one exit 0 and N−1 exit 45")
    func duplicateRace() async throws {
        let sandbox = try StoreSandbox("swcred-t2")
        #expect(try await sandbox.run(["init"]).status == 0)
        let n = 12
        let children = try (1...n).map { worker in
            try sandbox.startShell(
                "printf 'pw-%s\\n' \"$W\" | exec \"$SWCRED\" add race.example same-user --password-stdin --lock-timeout 120",
                environment: ["W": String(worker)])
        }
        let statuses = children.map { $0.wait().status }
        #expect(statuses.filter { $0 == 0 }.count == 1, "\(statuses)")
        #expect(statuses.filter { $0 == 45 }.count == n - 1, "\(statuses)")
        let items = try await sandbox.listItems()
        #expect(items.count == 1)
        let shown = try await sandbox.run(["show", "race.example", "same-user"]).stdout
        #expect(shown.hasPrefix("pw-") && (1...n).contains(Int(shown.dropFirst(3).dropLast()) ?? -1))
    }

    @Test("T3: N parallel -U updates of one item → the final password is one of the inputs")
    func updateRace() async throws {
        let sandbox = try StoreSandbox("swcred-t3")
        #expect(try await sandbox.add("upd.example", "u", password: "initial").status == 0)
        let generationBefore = try await Self.generation(sandbox)
        let n = 10
        let children = try (1...n).map { worker in
            try sandbox.startShell(
                "printf 'pw-%s\\n' \"$W\" | exec \"$SWCRED\" add upd.example u --password-stdin -U --lock-timeout 120",
                environment: ["W": String(worker)])
        }
        let statuses = children.map { $0.wait().status }
        #expect(statuses.allSatisfy { $0 == 0 }, "\(statuses)")
        // Every worker's password differs from the others', so each update was a write (store.md T3).
        #expect(try await Self.generation(sandbox) == generationBefore + UInt64(n))
        let final = try await sandbox.run(["show", "upd.example", "u"]).stdout
        #expect((1...n).map { "pw-\($0)\n" }.contains(final), "\(final)")
        #expect(try await sandbox.listItems().count == 1)
    }

    @Test("T15: lock held by another process → busy (22) at once with --lock-timeout 0, after about 1 s with 1; after the holder is killed, the next writer proceeds",
          .enabled(if: CLI.binaryHasDebugHooks, "the holder stops at the debug build's SWCRED_TEST_HOOK"))
    func lockHeld() async throws {
        let sandbox = try StoreSandbox("swcred-t15")
        #expect(try await sandbox.add("lock.example", "a", password: "pw").status == 0)
        let lockPath = sandbox.defaultStorePath + ".lock"
        #expect(FileManager.default.fileExists(atPath: lockPath))
        let before = try StoreSandbox.bytes(sandbox.defaultStorePath)

        // Another swcred process holds the real lock: it stops itself (SIGSTOP) at the library's
        // debug pause point right after taking flock(LOCK_EX).
        let holderErr = sandbox.path("holder.err")
        _ = FileManager.default.createFile(atPath: holderErr, contents: nil)
        let holder = Process()
        holder.executableURL = CLI.binary
        holder.arguments = ["add", "lock.example", "holder", "--password-stdin"]
        var env = sandbox.shellEnvironment
        env["SWCRED_TEST_HOOK"] = "after-lock"
        env["SWCRED_TEST_HOOK_ACTION"] = "stop"
        holder.environment = env
        let holderInput = Pipe()
        holder.standardInput = holderInput
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: holderErr))
        try holder.run()
        holderInput.fileHandleForWriting.write(Data("pw\n".utf8))
        try holderInput.fileHandleForWriting.close()
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL); holder.waitUntilExit() } }
        // Wait until it has stopped at the hook, holding the lock.
        let held = CLI.waitUntilStopped(holder)
        try #require(held, "the holder never stopped with the lock: \((try? String(contentsOfFile: holderErr, encoding: .utf8)) ?? "")")

        let immediate = try await sandbox.run(["add", "lock.example", "b", "--password-stdin", "--lock-timeout", "0", "--format", "json"], stdin: "pw\n")
        #expect(immediate.status == 22, "\(immediate.stderr)")
        #expect(try immediate.errorJSON()["code"] as? String == "busy")

        let started = Date()
        let waited = try await sandbox.add("lock.example", "b", password: "pw", ["--lock-timeout", "1"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(waited.status == 22)
        #expect(elapsed >= 0.9, "gave up after \(elapsed) s, before the 1 s timeout")
        #expect(try StoreSandbox.bytes(sandbox.defaultStorePath) == before)
        // Readers take no lock.
        #expect(try await sandbox.listItems().count == 1)

        // SIGKILL the holder: the kernel releases the flock, the next writer proceeds.
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        let after = try await sandbox.add("lock.example", "b", password: "pw", ["--lock-timeout", "5"])
        #expect(after.status == 0, "\(after.stderr)")
        // The killed holder's own add never happened: only "a" and "b" are there.
        #expect(Set(try await sandbox.listItems().compactMap { $0["account"] as? String }) == ["a", "b"])
    }

    /// The store's generation, from `list --format json`.
    static func generation(_ sandbox: StoreSandbox) async throws -> UInt64 {
        let result = try await sandbox.run(["list", "--format", "json"])
        guard result.status == 0, let value = try result.json()["generation"] as? Int, value > 0 else {
            throw CLI.CLIError("no generation in list output: \(result.stdout) \(result.stderr)")
        }
        return UInt64(value)
    }
}
