import ArgumentParser
import Foundation
import Testing
@testable import SWCredCLI

/// Every command of `swcred` as its help dump names it (nested ones as `passkey register`), with
/// the long option names it takes and its command type: for the tests that check a rule over
/// every command that takes some option (the hand-offs of issues 28 and 31).
struct CommandTree {
    struct Command {
        let fullName: String
        let optionNames: Set<String>
        let type: (any ParsableCommand.Type)?
    }

    let commands: [Command]

    /// Reads the tree from `swcred --experimental-dump-help` and the command types from `SWCred`.
    static func load() async throws -> CommandTree {
        let dump = try await CLI.run(["--experimental-dump-help"])
        let root = try #require(try dump.json()["command"] as? [String: Any])
        var types: [String: any ParsableCommand.Type] = [:]
        func collect(_ type: any ParsableCommand.Type, path: [String]) {
            let path = path + [type._commandName]
            types[path.joined(separator: " ")] = type
            for sub in type.configuration.subcommands { collect(sub, path: path) }
        }
        for type in SWCred.allSubcommands { collect(type, path: []) }
        var commands: [Command] = []
        func walk(_ command: [String: Any], path: [String]) {
            let name = command["commandName"] as? String ?? "?"
            let arguments = command["arguments"] as? [[String: Any]] ?? []
            let names = arguments.flatMap { ($0["names"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String } }
            let fullName = (path + [name]).joined(separator: " ")
            commands.append(Command(fullName: fullName, optionNames: Set(names), type: types[fullName]))
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { walk(sub, path: path + [name]) }
        }
        for sub in root["subcommands"] as? [[String: Any]] ?? [] { walk(sub, path: []) }
        return CommandTree(commands: commands)
    }
}
