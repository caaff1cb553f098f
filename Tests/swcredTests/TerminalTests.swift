import Foundation
import Testing

/// Terminal manners: colour only on a terminal and never with `NO_COLOR`; without a terminal,
/// nothing waits for input.
@Suite("Terminal manners")
struct TerminalTests {
    /// Runs `swcred` under `script(1)`, which gives it a pseudo-terminal for stdin/stdout/stderr.
    static func onTerminal(_ arguments: [String], environment: [String: String], typed: String? = nil,
                           home given: URL? = nil) throws -> String {
        let home = try given ?? CLI.temporaryDirectory("swcred-tty")
        defer { if given == nil { try? FileManager.default.removeItem(at: home) } }
        let command = ([CLI.binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qefc", command, "/dev/null"]
        var env = ["PATH": "/usr/bin:/bin", "HOME": home.path, "TERM": "xterm", "SWIFT_BACKTRACE": "enable=no",
                   "XDG_DATA_HOME": home.appendingPathComponent("data").path,
                   "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                   "XDG_STATE_HOME": home.appendingPathComponent("state").path]
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let output = Pipe()
        process.standardOutput = output
        let input = Pipe()
        process.standardInput = typed == nil ? FileHandle.nullDevice : input
        try process.run()
        if let typed {
            // What the person types, after the prompt had time to appear.
            Thread.sleep(forTimeInterval: 1.5)
            input.fileHandleForWriting.write(Data(typed.utf8))
            try input.fileHandleForWriting.close()
        }
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

    @Test("verify shows its progress on a terminal as one line rewritten in place, erased at the end",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func verifyProgressOnTerminal() throws {
        let output = try Self.onTerminal(
            ["verify", "--entitlements", AssociationCommandTests.app("TacoShop.entitlements"), "--aasa-dir",
             AssociationCommandTests.sites.path],
            environment: [:])
        #expect(output.contains("\r\u{1B}[2Kverify: 1/"), "\(output.debugDescription)")
        #expect(output.contains("not trusted"))
    }

    @Test("no colour into a pipe")
    func noColourInPipe() async throws {
        let result = try await CLI.run(Self.missingStore)
        #expect(result.status != 0)
        #expect(result.stderr.contains("error:"))
        #expect(!result.stderr.contains("\u{1B}["))
    }

    @Test("on a terminal, request without --pick shows the picker and uses the person's choice; without one it never waits",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func pickerOnTerminal() async throws {
        let home = try CLI.temporaryDirectory("swcred-picker")
        defer { try? FileManager.default.removeItem(at: home) }
        for (account, password) in [("alice", "pw-alice"), ("bob", "pw-bob")] {
            let added = try await CLI.run(["add", "tacos.example", account, "--password-stdin"], stdin: password + "\n", home: home)
            #expect(added.status == 0, "\(added.stderr)")
        }
        let app = ["--entitlements", CLI.fixtures.appendingPathComponent("apps/TacoShop.entitlements").path,
                   "--aasa-dir", CLI.fixtures.appendingPathComponent("sites").path]
        let output = try Self.onTerminal(["request", "tacos.example"] + app, environment: ["NO_COLOR": "1"], typed: "2\n", home: home)
        let second = try #require(output.firstMatch(of: /2\) ([a-z]+) \(tacos\.example\)/)?.1, "no picker shown: \(output)")
        #expect(output.contains("1) "), "no picker shown: \(output)")
        #expect(output.contains("\(second)\tpw-\(second)"), "the typed choice was not used: \(output)")

        // No terminal: the first credential offered, at once, no prompt.
        let piped = try await CLI.run(["request", "tacos.example"] + app, home: home)
        #expect(piped.status == 0)
        #expect(["alice\tpw-alice\n", "bob\tpw-bob\n"].contains(piped.stdout))
        #expect(!piped.stderr.contains("1) "))
    }
}
