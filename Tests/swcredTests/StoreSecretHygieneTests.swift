import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// store.md T10 (no secret on argv, in the environment or in output) and T11 (dump hygiene), on
/// real `swcred` processes held at the debug-only pause point `SWCRED_TEST_CLI_PAUSE` while the
/// secret is in memory.
@Suite("Store CLI: secret hygiene", .enabled(if: CLI.binaryHasDebugHooks, "needs the debug build's SWCRED_TEST_* hooks"))
struct StoreSecretHygieneTests {
    /// A `swcred` child held at a pause point.
    struct PausedChild {
        let process: Process
        let report: [String: Any]
        let pauseFile: String
        let outPath: String
        let errPath: String

        var pid: Int32 { process.processIdentifier }

        /// Lets the child go on and waits for it.
        func resume() -> (status: Int32, stdout: String, stderr: String) {
            _ = FileManager.default.createFile(atPath: pauseFile + ".go", contents: nil)
            process.waitUntilExit()
            let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
            let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
            return (process.terminationStatus, out, err)
        }

        /// A procfs file of the child, as raw text (NULs kept).
        func proc(_ name: String) -> String? {
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/\(name)") else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// Starts `swcred arguments` in `sandbox` with `stdinText` on stdin and waits until it reaches
    /// the pause point `point`.
    static func startPaused(
        _ sandbox: StoreSandbox, _ arguments: [String], stdinText: String?, environment: [String: String] = [:],
        extraFD: (number: Int32, path: String)? = nil
    ) throws -> PausedChild {
        let pauseFile = sandbox.path("pause-\(UUID().uuidString)")
        let outPath = pauseFile + ".out"
        let errPath = pauseFile + ".err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        var env = sandbox.shellEnvironment
        env["SWCRED_TEST_CLI_PAUSE"] = pauseFile
        for (key, value) in environment { env[key] = value }
        if let extraFD {
            // The shell opens the file on the wanted descriptor and execs swcred, which inherits it.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "exec \(extraFD.number)<\"$FD_FILE\"; exec \"$SWCRED\" \"$@\"", "sh"] + arguments
            env["FD_FILE"] = extraFD.path
        } else {
            process.executableURL = CLI.binary
            process.arguments = arguments
        }
        process.environment = env
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        try process.run()
        if let stdinText { input.fileHandleForWriting.write(Data(stdinText.utf8)) }
        try input.fileHandleForWriting.close()
        for _ in 0..<3000 {
            if let data = FileManager.default.contents(atPath: pauseFile),
               let report = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
                return PausedChild(process: process, report: report, pauseFile: pauseFile, outPath: outPath, errPath: errPath)
            }
            if !process.isRunning {
                let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
                throw CLI.CLIError("swcred exited (\(process.terminationStatus)) before the pause point: \(err)")
            }
            usleep(10_000)
        }
        kill(process.processIdentifier, SIGKILL)
        throw CLI.CLIError("swcred never reached the pause point")
    }

    static func sentinel() -> String { "SENTINEL-\(UUID().uuidString)" }

    @Test("T10: a password on stdin or in a file is absent from cmdline and environ, and from output except show's")
    func passwordNeverOnArgvOrInOutput() async throws {
        let sandbox = try StoreSandbox("swcred-t10")
        let viaStdin = Self.sentinel()
        let child = try Self.startPaused(sandbox, ["add", "t10.example", "alice", "--password-stdin"], stdinText: viaStdin + "\n",
                                         environment: ["SWCRED_TEST_KEEP_DUMPABLE": "1"])
        #expect(child.report["point"] as? String == "after-password")
        let cmdline = try #require(child.proc("cmdline"))
        #expect(cmdline.contains("t10.example"), "cmdline not read: \(cmdline)")
        #expect(!cmdline.contains(viaStdin))
        let environ = try #require(child.proc("environ"), "environ unreadable with the dumpability hardening off")
        #expect(environ.contains("SWCRED_TEST_CLI_PAUSE"))
        #expect(!environ.contains(viaStdin))
        let finished = child.resume()
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(!finished.stdout.contains(viaStdin) && !finished.stderr.contains(viaStdin))

        // From a file.
        let viaFile = Self.sentinel()
        let file = sandbox.path("pw")
        #expect(FileManager.default.createFile(atPath: file, contents: Data((viaFile + "\n").utf8), attributes: [.posixPermissions: 0o600]))
        let fileChild = try Self.startPaused(sandbox, ["add", "t10.example", "bob", "--password-file", file], stdinText: nil,
                                             environment: ["SWCRED_TEST_KEEP_DUMPABLE": "1"])
        #expect(!(fileChild.proc("cmdline") ?? viaFile).contains(viaFile))
        #expect(!(fileChild.proc("environ") ?? viaFile).contains(viaFile))
        let fileDone = fileChild.resume()
        #expect(fileDone.status == 0)
        #expect(!fileDone.stdout.contains(viaFile) && !fileDone.stderr.contains(viaFile))

        // list never shows it, in either format; show does, and only on stdout.
        for format in ["text", "json"] {
            let list = try await sandbox.run(["list", "--format", format])
            #expect(list.status == 0)
            #expect(!list.stdout.contains(viaStdin) && !list.stdout.contains(viaFile) && !list.stderr.contains(viaStdin))
        }
        let shown = try await sandbox.run(["show", "t10.example", "alice"])
        #expect(shown.stdout == viaStdin + "\n")
        #expect(!shown.stderr.contains(viaStdin))
        let shownJSON = try await sandbox.run(["show", "t10.example", "bob", "--format", "json"])
        #expect(try shownJSON.json()["password"] as? String == viaFile)

        // Error paths never repeat the password: duplicate (45), too long (50), loose file (28).
        let duplicate = try await sandbox.add("t10.example", "alice", password: viaStdin)
        #expect(duplicate.status == 45)
        #expect(!duplicate.stderr.contains(viaStdin) && !duplicate.stdout.contains(viaStdin))
        let long = viaStdin + String(repeating: "x", count: 4100)
        let tooLong = try await sandbox.run(["add", "t10.example", "carol", "--password-stdin", "--format", "json"], stdin: long)
        #expect(tooLong.status == 50)
        #expect(!tooLong.stderr.contains(viaStdin) && !tooLong.stdout.contains(viaStdin))
        chmod(file, 0o644)
        let loose = try await sandbox.run(["add", "t10.example", "dave", "--password-file", file])
        #expect(loose.status == 28)
        #expect(!loose.stderr.contains(viaFile))
    }

    @Test("T10: a passphrase from a descriptor or a file is absent from cmdline, environ and output")
    func passphraseNeverOnArgv() async throws {
        let sandbox = try StoreSandbox("swcred-t10p")
        let phrase = Self.sentinel()
        let phraseFile = sandbox.path("phrase")
        #expect(FileManager.default.createFile(atPath: phraseFile, contents: Data((phrase + "\n").utf8), attributes: [.posixPermissions: 0o600]))
        let store = sandbox.path("p.swcred")
        let created = try await sandbox.run(["init", "--store", store, "--passphrase-file", phraseFile, "--kdf", "test"])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(!created.stdout.contains(phrase) && !created.stderr.contains(phrase))

        let child = try Self.startPaused(sandbox, ["list", "--store", store, "--passphrase-fd", "7"], stdinText: nil,
                                         environment: ["SWCRED_TEST_KEEP_DUMPABLE": "1"], extraFD: (7, phraseFile))
        #expect(child.report["point"] as? String == "after-passphrase")
        #expect(!(child.proc("cmdline") ?? phrase).contains(phrase))
        #expect(!(child.proc("environ") ?? phrase).contains(phrase))
        let done = child.resume()
        #expect(done.status == 0, "\(done.stderr)")
        #expect(!done.stdout.contains(phrase) && !done.stderr.contains(phrase))

        // A wrong passphrase's error does not repeat it.
        let wrong = Self.sentinel()
        let wrongResult = try await sandbox.run(["list", "--store", store, "--passphrase-stdin", "--format", "json"], stdin: wrong + "\n")
        #expect(wrongResult.status == 20)
        #expect(!wrongResult.stderr.contains(wrong) && !wrongResult.stdout.contains(wrong))
    }

    @Test("T11: while holding a secret, the process has core limit 0 and is not dumpable")
    func dumpHygiene() throws {
        let sandbox = try StoreSandbox("swcred-t11")
        let child = try Self.startPaused(sandbox, ["add", "t11.example", "alice", "--password-stdin"], stdinText: "pw\n")
        #expect(child.report["dumpable"] as? Int == 0, "PR_GET_DUMPABLE: \(child.report)")
        #expect(child.report["coreSoft"] as? Int == 0)
        #expect(child.report["coreHard"] as? Int == 0)
        // procfs agrees: "Max core file size  0  0  bytes".
        let limits = try #require(child.proc("limits"))
        let coreLine = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") })
        let fields = coreLine.split(separator: " ", omittingEmptySubsequences: true)
        #expect(fields.count >= 6 && fields[4] == "0" && fields[5] == "0", "\(coreLine)")
        // A non-dumpable process's procfs entries belong to root (observable only when we are not root).
        if geteuid() != 0 {
            let owner = try? FileManager.default.attributesOfItem(atPath: "/proc/\(child.pid)/environ")[.ownerAccountID]
            #expect((owner as? NSNumber)?.intValue == 0)
        }
        let done = child.resume()
        #expect(done.status == 0, "\(done.stderr)")

        // The test switch really switches: with it, the process stays dumpable (so the T10 environ
        // read above is a real read of a dumpable process, and this test would notice a no-op hardening).
        let relaxed = try Self.startPaused(sandbox, ["add", "t11.example", "bob", "--password-stdin"], stdinText: "pw\n",
                                           environment: ["SWCRED_TEST_KEEP_DUMPABLE": "1"])
        #expect(relaxed.report["dumpable"] as? Int == 1)
        #expect(relaxed.report["coreSoft"] as? Int == 0)
        #expect(relaxed.resume().status == 0)
    }
}
