import ArgumentParser

/// The examples every subcommand's `--help` ends with (and the man page repeats). They use the
/// bundled fixtures, so each one runs as written from the repository root.
enum HelpExamples {
    static let byCommand: [String: [String]] = [
        "entitlements": ["swcred entitlements Fixtures/apps/TacoShop.entitlements --format json"],
        "lint": ["swcred lint \\", "    Fixtures/sites/broken.example/.well-known/apple-app-site-association"],
        "explain": ["swcred explain", "swcred explain SWC031", "swcred explain AD-4.8 --format json"],
        "match": [
            "swcred match 'https://tacos.example/taco/al-pastor?cheese=extra' \\",
            "    --entitlements Fixtures/apps/TacoShop.entitlements \\",
            "    --aasa-dir Fixtures/sites",
            "swcred match --sitemap Fixtures/sitemaps/tacos-index.xml \\",
            "    --aasa-dir Fixtures/sites --app-id ABCDE12345.com.example.tacoshop",
        ],
        "verify": [
            "swcred verify --entitlements Fixtures/apps/TacoShop.entitlements \\",
            "    --aasa-dir Fixtures/sites",
            "swcred verify --entitlements MyApp.entitlements --direct \\",
            "    --service webcredentials --format json",
        ],
        "fetch": ["swcred fetch example.com --direct --format json"],
        "associations": [
            "swcred associations --entitlements Fixtures/apps/TacoShop.entitlements \\",
            "    --aasa-dir Fixtures/sites",
        ],
        "init": ["swcred init --passphrase-file ~/.config/swcred/passphrase"],
        "add": [
            "printf '%s\\n' \"$PASSWORD\" |",
            "    swcred add tacos.example alice@example.com --password-stdin",
            "swcred add tacos.example bob@example.com --generate --user not-now \\",
            "    --entitlements Fixtures/apps/TacoShop.entitlements \\",
            "    --aasa-dir Fixtures/sites",
        ],
        "request": [
            "swcred request tacos.example --pick alice@example.com \\",
            "    --entitlements Fixtures/apps/TacoShop.entitlements \\",
            "    --aasa-dir Fixtures/sites",
        ],
        "settings": ["swcred settings --autofill off --format json"],
        "list": ["swcred list tacos.example --format json"],
        "show": ["password=$(swcred show tacos.example alice@example.com)"],
        "delete": ["swcred delete tacos.example alice@example.com"],
        "generate": [
            "swcred generate --count 3",
            "swcred generate --rules 'required: upper; required: digit; minlength: 12;' --format json",
        ],
        "import": [
            "swcred import Fixtures/exports/chrome.csv --dry-run",
            "swcred import passwords.csv --from safari --on-conflict update --format json",
        ],
        "export": [
            "swcred export -o passwords.jsonl",
            "swcred export --to chrome -o chrome-passwords.csv",
        ],
        "rekey": ["swcred rekey --new-passphrase-file ~/.config/swcred/passphrase"],
        "passkey": [
            "swcred passkey register options.json \\",
            "    --entitlements Fixtures/apps/TacoShop.entitlements --aasa-dir Fixtures/sites",
            "swcred passkey assert request.json --pick alice@example.com \\",
            "    --entitlements Fixtures/apps/TacoShop.entitlements",
            "swcred passkey register options.json --origin https://login.tacos.example",
            "swcred passkey list --format json",
        ],
    ]

    /// `text` followed by the command's examples.
    static func discussion(_ command: String, _ text: String = "") -> String {
        guard let lines = byCommand[command] else { return text }
        let examples = "Examples:\n" + lines.map { "  " + $0 }.joined(separator: "\n")
        return text.isEmpty ? examples : text + "\n\n" + examples
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
