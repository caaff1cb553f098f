public import SWCredCore

/// A parsed and canonicalised Password Rules string (PW-4).
///
/// ``parse(_:maximumLength:)`` reproduces Apple's reference parser
/// (`password-manager-resources/tools/PasswordRulesParser`): the same rules, values and order, and the
/// same losses on malformed input, reported as ``diagnostics``. ``init(validating:maximumLength:)``
/// is the strict variant for rules a person typed: any loss is an error.
///
/// ```swift
/// let rules = try PasswordRules.parse("required: upper; required: digit; minlength: 20;")
/// print(rules)  // required: upper; required: digit; allowed: upper, digit; minlength: 20;
/// ```
public struct PasswordRules: Sendable, Hashable, CustomStringConvertible {
    /// The canonical rules in output order (PW-4.7): `required` rules in input order, then
    /// `allowed`, `max-consecutive`, `max-repeating`, `max-sequential`, `minlength`, `maxlength`.
    public let rules: [PasswordRule]
    /// What the parser dropped or ignored, in input order (PW-4.6); swcred shows these.
    public let diagnostics: [Diagnostic]

    /// A parser finding: something in the input was ignored or lost.
    public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
        /// Where in the input (UTF-16 offset, as the reference parser counts).
        public let offset: Int
        /// What happened.
        public let message: String
        /// `offset: message`.
        public var description: String { "at \(offset): \(message)" }
    }

    /// The default upper bound on the size of a rules string, in UTF-16 code units.
    public static let defaultMaximumLength = 8192

    init(rules: [PasswordRule], diagnostics: [Diagnostic]) {
        self.rules = rules
        self.diagnostics = diagnostics
    }

    /// The rules of the empty string: `allowed: ascii-printable;`.
    public static let none = PasswordRules(rules: [.allowed([.asciiPrintable])], diagnostics: [])

    /// Parses `text` as Apple's reference parser does (PW-4.2 – PW-4.7), never failing on content.
    ///
    /// - Parameters:
    ///   - text: the rules string.
    ///   - maximumLength: the size limit, checked before parsing.
    /// - Returns: the canonical rules and the parser's diagnostics.
    /// - Throws: `limitExceeded` when `text` is longer than `maximumLength` UTF-16 code units.
    public static func parse(_ text: String, maximumLength: Int = defaultMaximumLength) throws(SWCredError)
        -> PasswordRules
    {
        let units = text.utf16
        guard units.count <= maximumLength else {
            throw SWCredError(
                .limitExceeded,
                "the password rules are \(units.count) UTF-16 code units long; the limit is \(maximumLength)")
        }
        var parser = PasswordRulesParser(Array(units))
        return parser.parse()
    }

    /// Parses `text` strictly: any diagnostic is an error.
    ///
    /// Use for rules a person gave (`--rules`), where a silently dropped property would generate
    /// passwords the person did not ask for.
    /// - Throws: `malformedRules` naming the first loss; `limitExceeded` when `text` is too long.
    public init(validating text: String, maximumLength: Int = defaultMaximumLength) throws(SWCredError) {
        let parsed = try Self.parse(text, maximumLength: maximumLength)
        if !parsed.diagnostics.isEmpty {
            let list = parsed.diagnostics.map(\.description).joined(separator: "; ")
            // The diagnostics say what Apple's lenient parser does ("treated as empty", "dropped");
            // here that loss is the error, and the message says so.
            throw SWCredError(
                .malformedRules,
                "the password rules are malformed: \(list). Apple's parser would go on as described; "
                    + "swcred refuses rules that lose anything, so nothing was generated")
        }
        self = parsed
    }

    // MARK: Accessors

    /// Each `required` rule's classes, in input order.
    public var required: [[CharacterClass]] {
        rules.compactMap { if case .required(let classes) = $0 { return classes } else { return nil } }
    }

    /// The canonical `allowed` classes (never empty after parsing).
    public var allowed: [CharacterClass] {
        for rule in rules { if case .allowed(let classes) = rule { return classes } }
        return [.asciiPrintable]
    }

    /// `max-consecutive`, when given.
    public var maxConsecutive: Int? { firstNumber { if case .maxConsecutive(let n) = $0 { n } else { nil } } }

    /// `max-repeating`, when given.
    public var maxRepeating: Int? { firstNumber { if case .maxRepeating(let n) = $0 { n } else { nil } } }

    /// `max-sequential`, when given.
    public var maxSequential: Int? { firstNumber { if case .maxSequential(let n) = $0 { n } else { nil } } }

    /// `minlength`, when given.
    public var minLength: Int? { firstNumber { if case .minLength(let n) = $0 { n } else { nil } } }

    /// `maxlength`, when given.
    public var maxLength: Int? { firstNumber { if case .maxLength(let n) = $0 { n } else { nil } } }

    /// The number of the first rule that `number` picks out, if any.
    private func firstNumber(_ number: (PasswordRule) -> Int?) -> Int? {
        for rule in rules { if let value = number(rule) { return value } }
        return nil
    }

    /// The format-compliant serialisation (PW-4.8): `name: v1, v2;` joined by single spaces.
    public var description: String {
        rules.map(\.description).joined(separator: " ")
    }
}
