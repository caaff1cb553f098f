import ArgumentParser

/// The examples every subcommand's `--help` ends with (and the man page repeats). They use the
/// bundled fixtures, so each one runs as written from the repository root.
enum HelpExamples {
    /// The example lines of `command`, indented, or `nil`. Literals, not a dictionary of lines to
    /// join: the parser builds every subcommand's configuration at every start (issue 22).
    static func examples(_ command: String) -> String? {
        switch command {
        case "entitlements": return "  swcred entitlements Fixtures/apps/TacoShop.entitlements --format json"
        case "lint": return """
              swcred lint \\
                  Fixtures/sites/broken.example/.well-known/apple-app-site-association
            """
        case "explain": return """
              swcred explain
              swcred explain SWC031
              swcred explain AD-4.8 --format json
            """
        case "match": return """
              swcred match 'https://tacos.example/taco/al-pastor?cheese=extra' \\
                  --entitlements Fixtures/apps/TacoShop.entitlements \\
                  --aasa-dir Fixtures/sites
              swcred match --sitemap Fixtures/sitemaps/tacos-index.xml \\
                  --aasa-dir Fixtures/sites --app-id ABCDE12345.com.example.tacoshop
            """
        case "verify": return """
              swcred verify --entitlements Fixtures/apps/TacoShop.entitlements \\
                  --aasa-dir Fixtures/sites
              swcred verify --entitlements MyApp.entitlements --direct \\
                  --service webcredentials --format json
              swcred verify --android-app "com.example.app=$SHA256" --host example.com \\
                  --aasa-dir Fixtures/sites
            """
        case "fetch": return "  swcred fetch example.com --direct --format json"
        case "associations": return """
              swcred associations --entitlements Fixtures/apps/TacoShop.entitlements \\
                  --aasa-dir Fixtures/sites
            """
        case "init": return "  swcred init --passphrase-file ~/.config/swcred/passphrase"
        case "add": return """
              printf '%s\\n' \"$PASSWORD\" |
                  swcred add tacos.example alice@example.com --password-stdin
              swcred add tacos.example bob@example.com --generate --user not-now \\
                  --entitlements Fixtures/apps/TacoShop.entitlements \\
                  --aasa-dir Fixtures/sites
            """
        case "request": return """
              swcred request tacos.example --pick alice@example.com \\
                  --entitlements Fixtures/apps/TacoShop.entitlements \\
                  --aasa-dir Fixtures/sites
            """
        case "settings": return "  swcred settings --autofill off --format json"
        case "list": return "  swcred list tacos.example --format json"
        case "show": return "  password=$(swcred show tacos.example alice@example.com)"
        case "delete": return "  swcred delete tacos.example alice@example.com"
        case "generate": return """
              swcred generate --count 3
              swcred generate --rules 'required: upper; required: digit; minlength: 12;' --format json
            """
        case "import": return """
              swcred import Fixtures/exports/chrome.csv --dry-run
              swcred import passwords.csv --from safari --on-conflict update --format json
            """
        case "export": return """
              swcred export -o passwords.jsonl
              swcred export --to chrome -o chrome-passwords.csv
            """
        case "rekey": return "  swcred rekey --new-passphrase-file ~/.config/swcred/passphrase"
        case "passkey": return """
              swcred passkey register options.json \\
                  --entitlements Fixtures/apps/TacoShop.entitlements --aasa-dir Fixtures/sites
              swcred passkey assert request.json --pick alice@example.com \\
                  --entitlements Fixtures/apps/TacoShop.entitlements
              swcred passkey register options.json --origin https://login.tacos.example
              swcred passkey list --format json
            """
        default: return nil
        }
    }

    /// `text` followed by the command's examples.
    static func discussion(_ command: String, _ text: String = "") -> String {
        guard let examples = examples(command) else { return text }
        return text.isEmpty ? "Examples:\n" + examples : text + "\n\nExamples:\n" + examples
    }
}

extension CommandConfiguration {
    /// A subcommand's configuration: its name, its abstract, and its discussion followed by its
    /// examples (``HelpExamples``).
    static func swcred(_ name: String, abstract: String, discussion: String = "") -> CommandConfiguration {
        CommandConfiguration(
            commandName: name, abstract: abstract, discussion: HelpExamples.discussion(name, discussion))
    }
}
