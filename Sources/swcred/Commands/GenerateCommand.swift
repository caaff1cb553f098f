import ArgumentParser
import SWCredCore
import SWCredPasswords

/// `swcred generate [--style strong|legacy|classic] [--rules R | --domain D --quirks FILE] [--count N] [--block-list FILE]`
/// (cli.md): strong passwords, with their exact entropy (PW-6).
///
/// `strong` is Safari's 20-character format (PW-3), `legacy` exactly
/// `SecCreateSharedWebCredentialPassword`'s (PW-2), `classic` Safari's fallback (PW-3.6). With
/// rules, Safari's adaptation picks strong or classic (PW-5). `--rules` is parsed strictly: a rules
/// string that loses anything while parsing fails with `malformedRules` (65). Quirk rules are
/// parsed as Apple parses them, and their diagnostics are shown on stderr (PW-7.2).
///
/// Text: one password per line, and the entropy once on stderr. JSON lines: `{"schema","password","entropyBits","rules"}`, plus
/// `style`, `secret`, `count` (|V| in decimal) and `entropyIsUpperBound` (true with `--block-list`,
/// PW-3.5). Warnings (entropy below 64 bits, ignored
/// `minlength`, rules diagnostics) go to stderr once.
struct GenerateCommand: FormatOptionsSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "generate",
        abstract: "Generate passwords: Safari's strong format, the legacy SWC format, or under Password Rules.")

    @OptionGroup var formatOptions: FormatOptions

    @Option(
        help:
            "strong (Safari's 20-character format, the default), legacy (SecCreateSharedWebCredentialPassword's), or classic."
    )
    var style: PasswordStyle = .strong

    @Option(help: "Password Rules in Apple's language, for example 'required: upper; required: digit; maxlength: 16;'.")
    var rules: String?

    @Option(help: "The site whose quirk applies (with --quirks).")
    var domain: String?

    @Option(help: "Apple's password-rules.json quirks file (with --domain).")
    var quirks: String?

    // `.unconditional`: `--count -1` reaches the range check ("must be between …") instead of being
    // taken for an option ("Missing value").
    @Option(parsing: .unconditional, help: "How many passwords (1-10000).")
    var count: Int = 1

    @Option(help: "A file of substrings (one per line, case-insensitive) that passwords must not contain.")
    var blockList: String?

    /// PW-1.1: a deterministic source for tests; its output is marked not secret.
    #if DEBUG
    @Option(help: .hidden)
    var insecureTestSeed: UInt64?
    #else
    var insecureTestSeed: UInt64? { nil }  // release builds have no such flag
    #endif

    static let maximumCount = 10_000

    func validate() throws {
        guard (1...Self.maximumCount).contains(count) else {
            throw ValidationError("--count must be between 1 and \(Self.maximumCount)")
        }
        if rules != nil && (domain != nil || quirks != nil) {
            throw ValidationError("--rules cannot be combined with --domain/--quirks")
        }
        if (domain == nil) != (quirks == nil) {
            throw ValidationError("--domain and --quirks go together")
        }
        if style == .legacy && (rules != nil || quirks != nil) {
            throw ValidationError("the legacy style has fixed rules; it takes no --rules or --quirks")
        }
        if let domain, !domain.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }) {
            throw ValidationError("--domain must be an ASCII host name (use the punycode A-label form)")
        }
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        let quirksFile = try quirks.map { (path: String) throws(SWCredError) in
            try PasswordRulesQuirks(contentsOfFile: path)
        }
        let warnings = quirksFile?.warnings ?? []
        // PW-7.3: --rules, else the quirk for --domain.
        let (parsedRules, origin) = try PasswordRules.resolve(explicit: rules, quirks: quirksFile, host: domain)
        if let domain, quirksFile != nil {
            if case .quirk(let entry) = origin, let parsedRules {
                console.err("note: using the quirk rules of \(entry): \(parsedRules)")
            } else {
                console.err("note: no quirk covers \(domain); generating without rules")
            }
        }
        let generator = try PreparedGenerator(style: style, rules: parsedRules)
        let blocked =
            try blockList.map { (path: String) throws(SWCredError) in try BlockList(contentsOfFile: path) }
            ?? BlockList([])
        try generator.generate(count: count, blockList: blocked, seed: insecureTestSeed) { index, generated in
            if index == 0 {
                for warning in warnings + generated.warnings { console.warn(warning) }
                if console.format == .text {
                    // PW-6.1: every password is reported with its entropy (on stderr, so stdout stays
                    // one password per line).
                    let bits = GeneratedPassword.formatBits(generated.entropyBits)
                    console.err(
                        "note: \(bits) bits of entropy each (\(generated.style.rawValue) style, uniform over "
                            + "\(generated.outputCount) passwords)")
                }
            }
            switch console.format {
            case .text:
                console.out(generated.password)
            case .json:
                console.emitJSONLine(GeneratedPassword.Document(generated))
            }
        }
        return .success
    }
}
