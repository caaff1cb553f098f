import ArgumentParser
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
            var message = fullMessage(for: error)
            if !message.isEmpty {
                if !message.hasSuffix("\n") { message += "\n" }
                CommandContext.write(Array(message.utf8), to: status == 0 ? context.standardOutput : context.standardError)
            }
            return ExitStatus(rawValue: status) ?? .failure
        }
    }
}

enum SWCredVersion {
    static let string = "0.1.0"
}
