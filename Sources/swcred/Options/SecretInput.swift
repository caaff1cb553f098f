import SWCredCore
import SWCredSodium
import SWCredStore

/// Maps the command's secret options to the library's reader (`SWCredStore.SecretReader`, which
/// holds the rules: the 4,096-byte limit, one trailing line ending removed, private files only).
enum SecretInput {
    /// Picks the source to use: the one given, else the terminal when stdin is one.
    /// - Throws: `interactionNotAllowed` (29) when no source is given and stdin is not a terminal:
    ///   the tool never waits for input it cannot get.
    static func resolve(_ given: SecretSource?, what: String) throws(SWCredError) -> SecretSource {
        if let given { return given }
        if CommandContext.isTerminal(CommandContext.current.standardInput) { return .terminal }
        throw SWCredError(
            .interactionNotAllowed,
            "a \(what) is needed but none was given and stdin is not a terminal; "
                + "use \(what == "password" ? "--password-stdin or --password-file" : "--passphrase-stdin, --passphrase-file, --passphrase-fd or SWCRED_PASSPHRASE_FILE")"
        )
    }

    /// Reads one secret from `source`, standard input being the command context's.
    static func read(_ source: SecretSource, what: String, allowEmpty: Bool = false) throws(SWCredError) -> SecureBytes {
        if case .descriptor(let fd) = source, fd < 0 {
            throw SWCredError(.usage, "--\(what)-fd needs a non-negative descriptor number")
        }
        return try SecretReader(standardInput: CommandContext.current.standardInput)
            .read(source, what: what, allowEmpty: allowEmpty)
    }
}

/// Refuses options that would carry a secret on the command line, before ArgumentParser sees them.
///
/// ArgumentParser's "unknown option" and "unexpected argument" messages repeat what was typed, so
/// `--password=hunter2` would be echoed to stderr (and into logs). This guard runs first (from
/// `SWCred.main`) and prints a fixed message instead, exit 64 (store.md §8, T10); which options it
/// refuses is ``SecretArguments``' rule.
enum SecretArgumentGuard {
    /// Reports a fixed message and returns 64 (usage) when argv carries a secret-looking option;
    /// `nil` otherwise.
    static func refuseSecretOptions(_ arguments: [String]) -> ExitStatus? {
        // The option's name is never printed: a mistyped name could itself contain the secret.
        guard SecretArguments.offendingOption(in: arguments) != nil else { return nil }
        let json = arguments.contains("--format=json")
            || zip(arguments, arguments.dropFirst()).contains { $0 == "--format" && $1 == "json" }
        let message = "an option that would carry a password or passphrase was refused: secrets are never "
            + "taken from the command line; use --password-stdin, --password-file, --passphrase-stdin, "
            + "--passphrase-file or --passphrase-fd"
        let console = Console(format: json ? .json : .text)
        console.report(SWCredError(.usage, message))
        return .usage
    }
}
