import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A private home for one store test: XDG folders inside a fresh temporary directory, so the
/// default paths of cli.md (`$XDG_DATA_HOME/swcred/keychain.swcred`, the key file under
/// `$XDG_CONFIG_HOME/swcred/`) are exercised without touching the real user's files.
struct StoreSandbox {
    let home: URL
    /// Extra environment for every run (for example `SWCRED_STORE`).
    var environment: [String: String] = [:]

    init(_ label: String = "swcred-store") throws {
        home = try CLI.temporaryDirectory(label)
    }

    /// The default keychain file (cli.md).
    var defaultStorePath: String { home.appendingPathComponent("data/swcred/keychain.swcred").path }

    /// A path inside the sandbox.
    func path(_ relative: String) -> String { home.appendingPathComponent(relative).path }

    /// Runs `swcred` with the sandbox's home and environment.
    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:]) async throws -> CLI.Result {
        try await CLI.run(arguments, stdin: stdin, environment: environment.merging(extra) { $1 }, home: home)
    }

    /// Adds one item through the browser path, password on stdin.
    @discardableResult
    func add(_ domain: String, _ account: String, password: String, _ extra: [String] = []) async throws -> CLI.Result {
        try await run(["add", domain, account, "--password-stdin"] + extra, stdin: password + "\n")
    }

    /// `list --format json` → the items array.
    func listItems(_ extra: [String] = []) async throws -> [[String: Any]] {
        let result = try await run(["list", "--format", "json"] + extra)
        guard result.status == 0 else { throw CLI.CLIError("list failed (\(result.status)): \(result.stderr)") }
        guard let items = try result.json()["items"] as? [[String: Any]] else {
            throw CLI.CLIError("list JSON has no items array: \(result.stdout)")
        }
        return items
    }

    /// The environment a child shell needs to run `swcred` in this sandbox (`$SWCRED` is the binary).
    var shellEnvironment: [String: String] {
        var env: [String: String] = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "SWIFT_BACKTRACE": "enable=no",
            "HOME": home.path,
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path,
            "SWCRED": CLI.binary.path,
        ]
        for (key, value) in environment { env[key] = value }
        return env
    }

    /// Starts `/bin/sh -c script` in this sandbox; the caller waits for it.
    func startShell(_ script: String, environment extra: [String: String] = [:]) throws -> ShellChild {
        try ShellChild(script: script, environment: shellEnvironment.merging(extra) { $1 })
    }

    /// File mode bits (`st_mode & 0o7777`) of a path, or nil when it does not exist.
    static func mode(_ path: String) -> mode_t? {
        // FileManager reads with lstat (symlinks are not followed). The `stat` struct itself is
        // avoided: under MemberImportVisibility its owning module varies between builds.
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let permissions = attributes[.posixPermissions] as? NSNumber
        else { return nil }
        return mode_t(permissions.uint32Value) & 0o7777
    }

    /// The bytes of a file.
    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

/// A `/bin/sh -c` child whose stdout and stderr go to files (so many children never block on pipes).
final class ShellChild: @unchecked Sendable {
    // @unchecked: the Process is only touched from the creating test's thread.
    let process = Process()
    let outPath: String
    let errPath: String

    init(script: String, environment: [String: String]) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("swcred-sh-\(UUID().uuidString)").path
        outPath = base + ".out"
        errPath = base + ".err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        try process.run()
    }

    /// Waits and returns (status, stdout, stderr); removes the capture files.
    func wait() -> (status: Int32, stdout: String, stderr: String) {
        process.waitUntilExit()
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        unlink(outPath)
        unlink(errPath)
        return (process.terminationStatus, out, err)
    }
}

/// The argv guard and the secret-source rules that need no store.
@Suite("Store CLI: secret options and sources")
struct StoreHarnessTests {
    static let sentinel = "S3ntinel-\(UUID().uuidString.prefix(8))-pw"

    @Test("T10: secret-valued options are refused with 64 and the value is never echoed",
          arguments: [
            ["add", "example.com", "alice", "--password=SECRET"],
            ["add", "example.com", "alice", "--password", "SECRET"],
            ["show", "example.com", "alice", "--passphrase=SECRET"],
            ["--passphrase", "SECRET", "list"],
            ["list", "--password-stdin=SECRET"],
            ["init", "--new-passphrase=SECRET"],
            ["add", "example.com", "alice", "--passwordSECRET"],
            ["--format", "json", "add", "example.com", "alice", "--secret=SECRET"],
          ])
    func secretOptionsRefused(_ arguments: [String]) async throws {
        let sandbox = try StoreSandbox()
        let argv = arguments.map { $0.replacingOccurrences(of: "SECRET", with: Self.sentinel) }
        let result = try await sandbox.run(argv)
        #expect(result.status == 64)
        #expect(!result.stderr.contains(Self.sentinel))
        #expect(!result.stdout.contains(Self.sentinel))
        #expect(result.stderr.contains("never taken from the command line"))
        // Nothing was created.
        #expect(!FileManager.default.fileExists(atPath: sandbox.defaultStorePath))
    }

    @Test("T10: JSON mode reports the refusal as one usage error object on stderr")
    func secretOptionRefusedJSON() async throws {
        let sandbox = try StoreSandbox()
        let result = try await sandbox.run(["--format", "json", "add", "a.example", "b", "--password=\(Self.sentinel)"])
        #expect(result.status == 64)
        let error = try result.errorJSON()
        #expect(error["code"] as? String == "usage")
        #expect(!result.stderr.contains(Self.sentinel))
    }

    @Test("source options themselves are not secrets and pass the guard")
    func sourceOptionsPass() async throws {
        let sandbox = try StoreSandbox()
        let result = try await sandbox.run(["--password-file=/nonexistent", "--version"])
        #expect(result.status == 0)
    }

    @Test("on a terminal with no source, add prompts for the password with echo off",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func terminalPrompt() async throws {
        let sandbox = try StoreSandbox("swcred-tty")
        let typed = Self.sentinel + "-typed"
        // script(1) gives swcred a pseudo-terminal; the line is typed after the prompt has had
        // time to appear (typeahead is flushed when echo is turned off, as getpass does).
        let command = "'\(CLI.binary.path)' add tty.example alice"
        let result = try sandbox.startShell(
            "(sleep 2; printf '%s\\n' \"$TYPED\") | script -qefc \"$CMD\" /dev/null",
            environment: ["TYPED": typed, "CMD": command, "TERM": "xterm", "NO_COLOR": "1"]).wait()
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("Password:"), "no prompt: \(result.stdout)")
        #expect(!result.stdout.contains(typed), "the password was echoed: \(result.stdout)")
        #expect(try await sandbox.run(["show", "tty.example", "alice"]).stdout == typed + "\n")
    }
}
