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
/// `SWCred.main`) and prints a fixed message instead, exit 64 (store.md §8, T10).
///
/// Refused: any option whose name (the part before `=`) contains `password`, `passphrase`,
/// `passwd` or `secret`, or is `--pass`/`--pw`, except the options that take a *source* of a
/// secret (`--password-stdin`, `--password-file`, `--passphrase-stdin`, `--passphrase-file`,
/// `--passphrase-fd`, and the `--new-…` forms of `rekey`), which are not secrets themselves.
/// A flag given with `=value` (`--password-stdin=x`) is refused as well, since ArgumentParser
/// would echo the value. Arguments after a lone `--` are not inspected.
enum SecretArgumentGuard {
    // Switches rather than global sets: a command pays no one-time initialiser (hashing and
    // allocating two sets at start) for this check.

    /// Whether `name` is an option that takes a *source* of a secret (`--password-stdin`, …).
    static func isSourceOption(_ name: String) -> Bool {
        switch name {
        case "--password-stdin", "--passphrase-stdin", "--new-passphrase-stdin": true
        default: isValueTakingSourceOption(name)
        }
    }

    /// Whether `name` is a source option that takes a value (`--passphrase-fd 3`).
    static func isValueTakingSourceOption(_ name: String) -> Bool {
        switch name {
        case "--password-file", "--passphrase-file", "--passphrase-fd", "--new-passphrase-file",
            "--new-passphrase-fd":
            true
        default: false
        }
    }

    /// Returns the offending option's *name* (never its value), or nil when argv is clean.
    static func offendingOption(in arguments: [String]) -> String? {
        for argument in arguments {
            if argument == "--" { return nil }
            guard argument.hasPrefix("--") else { continue }
            let name: String
            let hasInlineValue: Bool
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals]).lowercased()
                hasInlineValue = true
            } else {
                name = argument.lowercased()
                hasInlineValue = false
            }
            if isSourceOption(name) {
                if hasInlineValue && !isValueTakingSourceOption(name) { return name }
                continue
            }
            let looksSecret = ["password", "passphrase", "passwd", "secret"].contains { name.contains($0) }
                || name == "--pass" || name == "--pw"
            if looksSecret { return name }
        }
        return nil
    }

    /// Reports a fixed message and returns 64 (usage) when argv carries a secret-looking option;
    /// `nil` otherwise.
    static func refuseSecretOptions(_ arguments: [String]) -> ExitStatus? {
        guard let name = offendingOption(in: arguments) else { return nil }
        let json = arguments.contains("--format=json")
            || zip(arguments, arguments.dropFirst()).contains { $0 == "--format" && $1 == "json" }
        _ = name  // never printed: a mistyped option name could itself contain the secret
        let message = "an option that would carry a password or passphrase was refused: secrets are never "
            + "taken from the command line; use --password-stdin, --password-file, --passphrase-stdin, "
            + "--passphrase-file or --passphrase-fd"
        let console = Console(format: json ? .json : .text)
        console.report(SWCredError(.usage, message))
        return .usage
    }
}
