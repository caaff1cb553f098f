import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// store.md T4 with real processes: `swcred add` killed with SIGKILL at random moments and at the
/// library's debug pause points (`SWCRED_TEST_HOOK`). After every kill the store opens and equals
/// the old or the new state exactly, holds every add that had exited 0, the next writer is not
/// blocked (the kernel released the flock), and stray temporary files are cleaned up.
/// `Tools/killloop` runs the same random-kill loop for 1,000 trials.
@Suite("Store CLI: kill -9", .serialized, .enabled(if: CLI.binaryHasDebugHooks, "needs the debug build's SWCRED_TEST_* hooks"))
struct StoreCrashTests {
    /// Starts `swcred add DOMAIN ACCOUNT --password-stdin` with stdout/stderr in files.
    static func startAdd(_ sandbox: StoreSandbox, _ domain: String, _ account: String, password: String,
                         environment: [String: String] = [:]) throws -> (Process, String) {
        let errPath = sandbox.path("child-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["add", domain, account, "--password-stdin", "--lock-timeout", "30"]
        var env = sandbox.shellEnvironment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        try process.run()
        input.fileHandleForWriting.write(Data((password + "\n").utf8))
        try input.fileHandleForWriting.close()
        return (process, errPath)
    }

    /// The accounts in the store (via `list --format json`), failing the test if the store does not open.
    static func accounts(_ sandbox: StoreSandbox, trial: Int) async throws -> Set<String> {
        let result = try await sandbox.run(["list", "--format", "json"])
        guard result.status == 0 else {
            throw CLI.CLIError("trial \(trial): the store does not open after a kill (exit \(result.status)): \(result.stderr)")
        }
        let items = try result.json()["items"] as? [[String: Any]] ?? []
        return Set(items.compactMap { $0["account"] as? String })
    }

    /// Files beside the store other than the store, its lock and its backup: temporary files.
    static func strayFiles(_ sandbox: StoreSandbox) -> [String] {
        let folder = URL(fileURLWithPath: sandbox.defaultStorePath).deletingLastPathComponent().path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { !["keychain.swcred", "keychain.swcred.lock", "keychain.swcred.bak"].contains($0) }
    }

    @Test("T4: 200 adds killed with SIGKILL at random moments; after each the store opens with every completed add")
    func randomKills() async throws {
        let sandbox = try StoreSandbox("swcred-t4")
        #expect(try await sandbox.run(["init"]).status == 0)
        // Calibrate: how long an add *process* takes here (the killed adds are processes), so the
        // kills spread over the whole add.
        var durations: [Double] = []
        for index in 0..<3 {
            let started = Date()
            let (process, errPath) = try Self.startAdd(sandbox, "cal.example", "cal\(index)", password: "pw")
            process.waitUntilExit()
            unlink(errPath)
            #expect(process.terminationReason == .exit && process.terminationStatus == 0)
            durations.append(Date().timeIntervalSince(started))
        }
        var typical = durations.sorted()[1]
        var present: Set<String> = ["cal0", "cal1", "cal2"]
        var completed = 0
        var killed = 0
        var landedDespiteKill = 0
        let trials = 200
        let started = Date()
        var windowCompleted = 0
        for trial in 0..<trials {
            // Keep the mix of outcomes healthy when the machine's load changes: every 10 trials,
            // shorten the delays if nearly all adds completed, lengthen them if nearly all were killed.
            if trial > 0 && trial % 10 == 0 {
                if windowCompleted >= 8 { typical *= 0.75 } else if windowCompleted <= 2 { typical *= 1.3 }
                windowCompleted = 0
            }
            let account = "k\(trial)"
            let (process, errPath) = try Self.startAdd(sandbox, "kill.example", account, password: "pw-\(trial)")
            // Uniform over [0.4, 1.6] × typical: the first part of an add is process start-up, so
            // this spreads the kills over reading, writing, renaming and finishing.
            let delay = Double.random(in: (typical * 0.4)...(typical * 1.6))
            try await Task.sleep(for: .microseconds(Int(delay * 1_000_000)))  // frees the cooperative thread meanwhile
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let exitedCleanly = process.terminationReason == .exit
            let stderrText = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
            unlink(errPath)
            if exitedCleanly {
                #expect(process.terminationStatus == 0, "trial \(trial): add exited \(process.terminationStatus): \(stderrText)")
                if process.terminationStatus == 0 { present.insert(account); completed += 1; windowCompleted += 1 }
            } else {
                killed += 1
            }
            let now = try await Self.accounts(sandbox, trial: trial)
            // Every completed add is there; nothing else changed but (maybe) the killed add.
            #expect(present.isSubset(of: now), "trial \(trial): lost \(present.subtracting(now))")
            let extra = now.subtracting(present)
            #expect(extra.isSubset(of: [account]), "trial \(trial): unexpected items \(extra)")
            if extra.contains(account) {
                // The kill came after the rename: the new state, which must now stay.
                present.insert(account)
                landedDespiteKill += 1
            }
        }
        let elapsed = Date().timeIntervalSince(started)
        // The loop must really have exercised both outcomes.
        #expect(killed > 0 && completed > 0, "killed \(killed), completed \(completed)")
        // The next writer is not blocked and removes stray temporary files.
        let next = try await sandbox.add("kill.example", "after", password: "pw", ["--lock-timeout", "0"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(Self.strayFiles(sandbox).isEmpty, "\(Self.strayFiles(sandbox))")
        #expect(try await Self.accounts(sandbox, trial: trials) == present.union(["after"]))
        print("T4 random kills: \(trials) trials in \(String(format: "%.1f", elapsed)) s; "
              + "\(completed) completed, \(killed) killed (\(landedDespiteKill) of them had already renamed); "
              + "delay scale at the end \(String(format: "%.0f", typical * 1000)) ms")
    }

    /// (hook point, whether the new state is in place when the process is killed there)
    static let hookPoints: [(String, Bool)] = [
        ("after-lock", false), ("after-temp-write", false), ("after-fsync", false),
        ("after-rename", true), ("before-dirsync", true),
    ]

    @Test("T4: SIGKILL at each write-path pause point → exactly the old or the new state; lock released; temp files cleaned",
          arguments: hookPoints.map(\.0))
    func killAtHooks(_ point: String) async throws {
        let entry = try #require(Self.hookPoints.first { $0.0 == point })
        let expectNew = entry.1
        let sandbox = try StoreSandbox("swcred-t4h")
        #expect(try await sandbox.add("hook.example", "base", password: "pw").status == 0)
        var present: Set<String> = ["base"]
        for round in 0..<4 {
            let account = "h\(round)"
            let (process, errPath) = try Self.startAdd(sandbox, "hook.example", account, password: "pw",
                                                       environment: ["SWCRED_TEST_HOOK": point, "SWCRED_TEST_HOOK_ACTION": "stop"])
            // Wait until the child has stopped itself at the hook, then kill it there.
            let (stopped, hookLine) = CLI.killAtHook(process, errPath: errPath)
            try #require(stopped, "the child never stopped at \(point): \(hookLine)")
            #expect(hookLine.contains("swcred-test-hook: \(point)"))

            let now = try await Self.accounts(sandbox, trial: round)
            if expectNew { present.insert(account) }
            #expect(now == present, "after a kill at \(point): \(now) vs \(present)")
        }
        // The kernel released the killed holders' flocks: a writer that tries once gets the lock,
        // and it removes the temporary files the killed writers left.
        let next = try await sandbox.add("hook.example", "next", password: "pw", ["--lock-timeout", "0"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(Self.strayFiles(sandbox).isEmpty, "\(Self.strayFiles(sandbox))")
        #expect(try await Self.accounts(sandbox, trial: -1) == present.union(["next"]))
    }
}
