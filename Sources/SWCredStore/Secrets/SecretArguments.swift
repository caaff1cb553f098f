/// Which command-line arguments would carry a secret (store.md §8: "Any option that would take a
/// secret as a value is refused with a usage error whose message does not repeat the value").
///
/// Refused: any option whose name (the part before `=`) contains `password`, `passphrase`,
/// `passwd` or `secret`, or is `--pass`/`--pw`, except the options that take a *source* of a
/// secret (`--password-stdin`, `--password-file`, `--passphrase-stdin`, `--passphrase-file`,
/// `--passphrase-fd`, and the `--new-…` forms of `rekey`), which are not secrets themselves.
/// A flag given with `=value` (`--password-stdin=x`) is refused as well, since an argument parser
/// would echo the value. Arguments after a lone `--` are not inspected.
package enum SecretArguments {
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

    /// The offending option's *name* (never its value), or `nil` when `arguments` is clean.
    package static func offendingOption(in arguments: [String]) -> String? {
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
}
