import ArgumentParser

/// The `swcred` root command: emulates Apple's Shared Web Credentials keychain and
/// associated-domains checks on Linux. Behaviour lives in the libraries; each subcommand is a
/// thin file in `Commands/`.
@main
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
        StartupHardening.apply()
        let arguments = Array(CommandLine.arguments.dropFirst())
        SecretArgumentGuard.refuseSecretOptions(arguments)
        let protected = PasskeyDeleteCommand.protectingDashedCredentialID(arguments)
        await main(protected == arguments ? nil : protected)
    }
}

enum SWCredVersion {
    static let string = "0.1.0"
}
