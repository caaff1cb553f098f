import Foundation
import Testing

/// Terminal manners: colour only on a terminal and never with `NO_COLOR`; without a terminal,
/// nothing waits for input.
@Suite("Terminal manners")
struct TerminalTests {
    /// Runs `swcred` under `script(1)`, which gives it a pseudo-terminal for stdin/stdout/stderr.
    static func onTerminal(_ arguments: [String], environment: [String: String]) throws -> String {
        let home = try CLI.temporaryDirectory("swcred-tty")
        defer { try? FileManager.default.removeItem(at: home) }
        let command = ([CLI.binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qefc", command, "/dev/null"]
        var env = ["PATH": "/usr/bin:/bin", "HOME": home.path, "TERM": "xterm", "SWIFT_BACKTRACE": "enable=no"]
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    static let missingStore = ["show", "example.com", "alice", "--store", "/nonexistent-swcred-dir/keychain.swcred", "--key-file", "/nonexistent-swcred-dir/key"]

    @Test("errors are coloured on a terminal", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func colourOnTerminal() throws {
        let output = try Self.onTerminal(Self.missingStore, environment: [:])
        #expect(output.contains("error:"), "\(output)")
        #expect(output.contains("\u{1B}["), "no colour on a terminal: \(output)")
    }

    @Test("NO_COLOR turns colour off even on a terminal", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func noColour() throws {
        let output = try Self.onTerminal(Self.missingStore, environment: ["NO_COLOR": "1"])
        #expect(output.contains("error:"), "\(output)")
        #expect(!output.contains("\u{1B}["), "colour despite NO_COLOR: \(output)")
    }

    @Test("no colour into a pipe")
    func noColourInPipe() throws {
        let result = try CLI.run(Self.missingStore)
        #expect(result.status != 0)
        #expect(result.stderr.contains("error:"))
        #expect(!result.stderr.contains("\u{1B}["))
    }
}
