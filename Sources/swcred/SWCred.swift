import ArgumentParser
import SWCredCore
import SWCredStore
#if canImport(Glibc)
import Glibc
#endif

/// The `swcred` root command: emulates Apple's Shared Web Credentials keychain and
/// associated-domains checks on Linux. Behaviour lives in the libraries; each subcommand is a
/// thin file in `Commands/`.
struct SWCred: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swcred",
        abstract: "Emulate Apple's Shared Web Credentials keychain and associated-domains checks on Linux.",
        discussion: """
            Exit codes are stable (see README.md): 0 success, 1 no match / internal error, \
            10 not trusted, 11-14 SWC outcomes, 20-29 store, 44/45/50 Apple item errors, \
            64-66 bad usage or input, 69 fetch refused, 71 resources, 74 I/O.

            Example (from the repository root):
              swcred verify --entitlements Fixtures/apps/TacoShop.entitlements \\
                  --aasa-dir Fixtures/sites
            """,
        version: SWCredVersion.string,
        subcommands: SWCred.allSubcommands
    )

    /// Hardens the process (core limit 0, non-dumpable) and refuses secret-valued options before
    /// ArgumentParser parses argv, since its error messages would echo them (store.md §8). A
    /// `passkey delete` credential ID that starts with `-` is kept a positional
    /// (``PasskeyDeleteCommand/protectingDashedCredentialID(_:)``).
    static func main() async {
        ProcessHardening.apply()
        let status = await execute(Array(CommandLine.arguments.dropFirst()))
        Glibc.exit(status.rawValue)
    }

    /// Runs one command line in the current ``CommandContext`` and returns its exit status: what
    /// `main` does in a real process, and what tests run in process (with a context of pipes and
    /// an environment of their own).
    ///
    /// Help, `--version` and completion scripts go to stdout with status 0; argument errors go to
    /// stderr with ArgumentParser's usage text and status 64, as `ParsableCommand.main()` prints
    /// them.
    static func execute(_ arguments: [String]) async -> ExitStatus {
        if let refused = SecretArgumentGuard.refuseSecretOptions(arguments) { return refused }
        let arguments = PasskeyDeleteCommand.protectingDashedCredentialID(arguments)
        do {
            var command = try parseAsRoot(arguments)
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
            return .success
        } catch {
            let context = CommandContext.current
            let status = exitCode(for: error).rawValue
            // An ExitCode carries a status a command already reported; nothing more is printed.
            if status != 0, !(error is ExitCode), OutputFormat.requested(in: arguments) == .json {
                // cli.md: in JSON mode every error is one object on stderr, argument errors too.
                let code: SWCredError.Code = status == ExitStatus.usage.rawValue ? .usage : .internalError
                Console(format: .json).report(SWCredError(code, usageMessage(for: error, arguments: arguments)))
                return ExitStatus(rawValue: status) ?? .failure
            }
            var message = fullMessage(for: error)
            if let suggestion = suggestion(for: arguments) { message += "\n" + suggestion }
            if !message.isEmpty {
                if !message.hasSuffix("\n") { message += "\n" }
                CommandContext.write(Array(message.utf8), to: status == 0 ? context.standardOutput : context.standardError)
            }
            return ExitStatus(rawValue: status) ?? .failure
        }
    }
}

extension SWCred {
    /// ArgumentParser's one-line message for an argument error, with a subcommand suggestion.
    static func usageMessage(for error: any Error, arguments: [String]) -> String {
        var message = Self.message(for: error)
        if let suggestion = suggestion(for: arguments) { message += " (\(suggestion))" }
        return message
    }

    /// "did you mean 'list'?" when the first argument is close to a subcommand's name (at most two
    /// edits) but is none.
    static func suggestion(for arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), first.utf8.count <= 64 else { return nil }
        let names = allSubcommands.map { $0._commandName } + ["help"]
        guard !names.contains(first) else { return nil }
        let near = names.map { ($0, EditDistance.between(first, $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }
        return near.map { "did you mean '\($0.0)'?" }
    }
}

/// The Levenshtein distance of two short strings, by Unicode scalar (for suggestions only).
enum EditDistance {
    static func between(_ a: String, _ b: String) -> Int {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        guard !x.isEmpty else { return y.count }
        guard !y.isEmpty else { return x.count }
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[y.count]
    }
}

enum SWCredVersion {
    static let string = "0.1.0"
}
