import Foundation
import Testing

/// Completions and the man page are generated from the argument parser; the checked-in man page
/// (Documentation/man/swcred.1, installed by Tools/install-shell-support) must describe exactly
/// the commands and options the binary has, and every command's help ends with an example.
@Suite("Shell completions, man page and help examples")
struct ShellSupportTests {
    struct Command: Sendable, CustomTestStringConvertible {
        let name: String
        let longOptions: [String]
        var testDescription: String { name }
    }

    /// The binary's own description of its commands (`--experimental-dump-help`).
    static let commands: [Command] = {
        guard let result = try? CLI.spawn(["--experimental-dump-help"]),
              let root = try? JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any],
              let command = root["command"] as? [String: Any],
              let subcommands = command["subcommands"] as? [[String: Any]]
        else { return [] }
        return subcommands.compactMap { sub in
            guard let name = sub["commandName"] as? String, name != "help", sub["shouldDisplay"] as? Bool != false else { return nil }
            let options = (sub["arguments"] as? [[String: Any]] ?? []).filter { $0["shouldDisplay"] as? Bool != false }
                .flatMap { ($0["names"] as? [[String: Any]]) ?? [] }
                .filter { $0["kind"] as? String == "long" }
                .compactMap { $0["name"] as? String }
            return Command(name: name, longOptions: options)
        }
    }()

    @Test("the binary lists its commands")
    func commandsFound() {
        #expect(Self.commands.count >= 15, "\(Self.commands.map(\.name))")
    }

    @Test("completion scripts for bash, zsh and fish name every command", arguments: ["bash", "zsh", "fish"])
    func completions(_ shell: String) async throws {
        let result = try await CLI.run(["--generate-completion-script", shell])
        #expect(result.status == 0)
        for command in Self.commands {
            #expect(result.stdout.contains(command.name), "\(shell) completion lacks \(command.name)")
        }
        #expect(result.stdout.contains("password-stdin"))
    }

    @Test("the man page documents every command and option", arguments: commands)
    func manPage(_ command: Command) throws {
        let page = try String(contentsOf: CLI.repositoryRoot.appendingPathComponent("Documentation/man/swcred.1"), encoding: .utf8)
        #expect(page.contains(".It Em \(command.name)\n"),
                "swcred.1 lacks \(command.name); run Tools/install-shell-support --regenerate")
        for option in command.longOptions {
            #expect(page.contains("Fl -\(option)") || page.contains(" , -\(option)"), "swcred.1 lacks \(command.name) --\(option); run Tools/install-shell-support --regenerate")
        }
    }

    @Test("every command's help shows an example", arguments: commands)
    func helpExample(_ command: Command) async throws {
        let result = try await CLI.run(["help", command.name])
        #expect(result.stdout.contains("Example"), "swcred help \(command.name) has no example")
    }
}
