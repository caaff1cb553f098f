import Foundation
import Testing

/// Runs `swcred` command lines for command tests: in the test process (``InProcess``) unless the
/// test needs a real process, then as the built binary (``spawn(_:stdin:environment:home:currentDirectory:launcher:)``).
///
/// The binary sits next to the test bundle in the build folder (`.build/debug/swcred`).
enum CLI {
    struct Result: Sendable {
        let status: Int32
        let stdout: String
        let stderr: String
        let stdoutBytes: [UInt8]

        /// Parses stdout as one JSON object.
        func json() throws -> [String: Any] {
            // Say what the process did when its stdout is not JSON (exit status and stderr), so
            // that a failure explains itself instead of "invalid value around character 0".
            guard let object = try? JSONSerialization.jsonObject(with: Data(stdoutBytes)) else {
                throw CLIError(
                    "stdout is not JSON (exit \(status)): \(stdout.prefix(300)) — stderr: \(stderr.prefix(600))")
            }
            guard let dict = object as? [String: Any] else {
                throw CLIError("stdout is not a JSON object: \(stdout)")
            }
            return dict
        }

        /// Parses stderr as one JSON error object (JSON mode errors).
        func errorJSON() throws -> [String: Any] {
            let line = stderr.split(separator: "\n").last.map(String.init) ?? ""
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            guard let dict = object as? [String: Any], let error = dict["error"] as? [String: Any] else {
                throw CLIError("stderr has no JSON error object: \(stderr)")
            }
            return error
        }
    }

    struct CLIError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The path of the built `swcred` executable.
    static let binary: URL = {
        if let explicit = ProcessInfo.processInfo.environment["SWCRED_BINARY"] {
            return URL(fileURLWithPath: explicit)
        }
        // On Linux the test bundle is `<build>/swcredPackageTests.xctest`; on macOS it is a bundle
        // inside `<build>`. Walk up from the bundle and from the running executable.
        var candidates: [URL] = []
        let bundleURL = Bundle.main.bundleURL
        candidates.append(bundleURL.deletingLastPathComponent().appendingPathComponent("swcred"))
        candidates.append(bundleURL.appendingPathComponent("swcred"))
        for bundle in Bundle.allBundles {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("swcred"))
        }
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(exe.deletingLastPathComponent().appendingPathComponent("swcred"))
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
        return candidates[0]
    }()

    /// Whether the binary under test is a debug build, with the test-only flags (`--kdf test`,
    /// `--insecure-test-seed`, `--cdn-base-url`) and pause hooks (`SWCRED_TEST_*`). A release
    /// binary given in `SWCRED_BINARY` (`Tools/test-release`) has none: the spawned-process tests
    /// that need them are skipped, every other one runs against it.
    static let binaryHasDebugHooks: Bool = {
        guard ProcessInfo.processInfo.environment["SWCRED_BINARY"] != nil else { return true }
        let probe = try? runProgram(
            binary, ["generate", "--insecure-test-seed", "1"], environment: environment([:], home: nil))
        return probe?.status == 0
    }()

    /// Runs `swcred` with `arguments`, feeding `stdin`, with `environment` added to a minimal
    /// environment (HOME and XDG folders point into `home` when given, so tests never touch the
    /// real user's files): in this test process, unless a launcher, a working directory or a debug
    /// hook of a real process (`SWCRED_TEST_*`) is asked for, which ``spawn(_:stdin:environment:home:currentDirectory:launcher:)`` runs.
    @discardableResult
    static func run(
        _ arguments: [String],
        stdin: String? = nil,
        environment: [String: String] = [:],
        home: URL? = nil,
        currentDirectory: URL? = nil,
        launcher: [String] = []
    ) async throws -> Result {
        let needsProcess = !launcher.isEmpty || currentDirectory != nil
            || environment.keys.contains { $0.hasPrefix("SWCRED_TEST_") }
        if needsProcess {
            // The child is waited for off Swift's cooperative threads.
            return try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(with: Swift.Result {
                        try spawn(
                            arguments, stdin: stdin, environment: environment, home: home,
                            currentDirectory: currentDirectory, launcher: launcher)
                    })
                }
            }
        }
        return await InProcess.run(arguments, stdin: stdin, environment: Self.environment(environment, home: home))
    }

    /// The minimal environment of a command run, with `home`'s XDG folders and `extra` added.
    static func environment(_ extra: [String: String], home: URL?) -> [String: String] {
        var env: [String: String] = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "SWIFT_BACKTRACE": "enable=no",
        ]
        if let home {
            env["HOME"] = home.path
            env["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
            env["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
            env["XDG_STATE_HOME"] = home.appendingPathComponent("state").path
        }
        for (key, value) in extra { env[key] = value }
        return env
    }

    /// Runs the built binary as a real process (see ``run(_:stdin:environment:home:currentDirectory:launcher:)``);
    /// `launcher` runs it under another program (for example `["/usr/bin/strace", "-f", …]`): the
    /// binary's path and `arguments` follow it.
    @discardableResult
    static func spawn(
        _ arguments: [String],
        stdin: String? = nil,
        environment: [String: String] = [:],
        home: URL? = nil,
        currentDirectory: URL? = nil,
        launcher: [String] = []
    ) throws -> Result {
        let env = Self.environment(environment, home: home)
        if let program = launcher.first {
            return try runProgram(
                URL(fileURLWithPath: program), Array(launcher.dropFirst()) + [binary.path] + arguments, stdin: stdin,
                environment: env, currentDirectory: currentDirectory)
        }
        return try runProgram(binary, arguments, stdin: stdin, environment: env, currentDirectory: currentDirectory)
    }

    /// SIGPIPE ignored in the test process, once: a child that exits before reading all of its
    /// stdin (it refused an over-long input) must fail the write with EPIPE, not end the test run
    /// (whether another test had already ignored it made this depend on test order).
    private static let ignoringBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Runs any program with `arguments`, feeding `stdin`, and collects its exit status and
    /// output. `environment` replaces the process environment; `nil` inherits this one.
    static func runProgram(
        _ executable: URL, _ arguments: [String], stdin: String? = nil, environment: [String: String]? = nil,
        currentDirectory: URL? = nil
    ) throws -> Result {
        _ = ignoringBrokenPipes
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }

        let outPipe = Pipe()
        let errPipe = Pipe()
        let inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe
        try process.run()
        // A child that stops reading (it refused an over-long input and exited) closes its end:
        // the write then fails with EPIPE, which the throwing API reports instead of trapping.
        if let stdin { try? inPipe.fileHandleForWriting.write(contentsOf: Data(stdin.utf8)) }
        try? inPipe.fileHandleForWriting.close()

        // Drain both pipes concurrently so a chatty child never blocks on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            outData = outPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errData = errPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self),
            stdoutBytes: [UInt8](outData)
        )
    }

    /// A fresh temporary directory, removed by the caller (or left for the OS in /tmp).
    /// Waits (up to 10 s) until `process` has stopped itself at a test hook (state `T` in
    /// `/proc/<pid>/stat`); `false` when it exited or never stopped.
    static func waitUntilStopped(_ process: Process) -> Bool {
        for _ in 0..<2000 {
            if let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")"), stat[stat.index(close, offsetBy: 2)] == "T"
            {
                return true
            }
            if !process.isRunning { return false }
            usleep(5_000)
        }
        return false
    }

    /// Waits for `process` to stop at its hook, then kills it with SIGKILL and reaps it, and
    /// removes its stderr file `errPath`.
    /// - Returns: whether it had stopped, and what it wrote on stderr (the hook's line).
    static func killAtHook(_ process: Process, errPath: String) -> (stopped: Bool, stderr: String) {
        let stopped = waitUntilStopped(process)
        let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        unlink(errPath)
        return (stopped, stderr)
    }

    static func temporaryDirectory(_ label: String = "swcred-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return url
    }

    /// The repository root (for `Fixtures/`), found from this source file's path.
    static let repositoryRoot: URL = {
        if let explicit = ProcessInfo.processInfo.environment["SWCRED_REPOSITORY_ROOT"] {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Support
            .deletingLastPathComponent()  // swcredTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()
    }()

    /// `Fixtures/` in the repository.
    static var fixtures: URL { repositoryRoot.appendingPathComponent("Fixtures") }
}
