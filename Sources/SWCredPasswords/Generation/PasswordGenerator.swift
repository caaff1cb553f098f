public import SWCredCore

/// swcred's password generators: Apple's legacy Shared Web Credentials format, Safari's strong
/// format, and Safari's adaptation to a site's Password Rules.
///
/// Every generator is uniform over its output set V (PW-1.3: whole-candidate rejection, or exact
/// sampling when the acceptance rate is low, PW-1.4) and reports H = log2 |V| exactly (PW-6).
///
/// ```swift
/// let legacy = try PasswordGenerator.legacy()                         // "ptz-K7m-2vd-Wqe"
/// let strong = try PasswordGenerator.generate()                       // "tobzi2-cyczyz-sesSyt", 71.88 bits
/// let site = try PasswordGenerator.generate(rules: "required: digit; maxlength: 12;")
/// print(site.password, site.entropyBits)
/// ```
public enum PasswordGenerator {
    /// Below this acceptance rate |V| / |base| the generators sample exactly instead of rejecting.
    ///
    /// **Decision:** 2^-12, stricter than PW-1.4's 2^-20, so that rejection needs about 4096
    /// candidates at worst and the strong style's 100000-rejection fallback (PW-5.6) is reached with
    /// probability below 4·10^-11.
    static let exactSamplingThreshold = 12

    /// The strong style gives up after this many consecutive rejections (PW-5.6).
    static let strongRejectionLimit = 100_000

    /// A password in `SecCreateSharedWebCredentialPassword`'s format, from libsodium's random bytes.
    ///
    /// `xxx-xxx-xxx-xxx` over `abcdefghkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789`, with at least
    /// one lower-case letter, one upper-case letter and one digit from 3–9 (PW-2); 69.06 bits.
    /// - Returns: the password, for example `ptz-K7m-2vd-Wqe`.
    /// - Throws: `cryptoUnavailable` when libsodium cannot be initialised.
    public static func legacy() throws(SWCredError) -> String {
        var source = SodiumRandomSource()
        return try legacy(using: &source).password
    }

    /// The legacy format from `source` (PW-2.2): the same byte stream gives the same password as
    /// Apple's `SecPasswordGenerate`.
    /// - Throws: whatever `source` throws.
    public static func legacy<R: RandomSource>(using source: inout R) throws(SWCredError) -> GeneratedPassword {
        try PreparedGenerator.legacy.get().next(using: &source)
    }

    /// A password in `style`, adapted to `rules` when given, from libsodium's random bytes.
    ///
    /// `rules` is parsed strictly: a rules string that loses anything while parsing is refused
    /// rather than silently generating for different rules. Use
    /// ``generate(style:rules:using:)`` with ``PasswordRules/parse(_:maximumLength:)`` for Apple's
    /// lenient behaviour.
    ///
    /// - Parameters:
    ///   - style: `strong` (default; with rules, Safari's adaptation picks strong or classic),
    ///     `classic` (forces the classic style), or `legacy` (no rules allowed).
    ///   - rules: a Password Rules string (PW-4), or `nil`.
    /// - Returns: the password with its entropy; see ``GeneratedPassword``.
    /// - Throws: `malformedRules` (65) for a lossy rules string, `infeasible` (65) when nothing satisfies
    ///   the rules, `invalidParameter` (50) for `legacy` with rules, `limitExceeded` for oversized rules.
    public static func generate(style: PasswordStyle = .strong, rules: String? = nil) throws(SWCredError)
        -> GeneratedPassword
    {
        let parsed: PasswordRules? = try rules.map { (text: String) throws(SWCredError) in
            try PasswordRules(validating: text)
        }
        var source = SodiumRandomSource()
        return try generate(style: style, rules: parsed, using: &source)
    }

    /// A password in `style`, adapted to parsed `rules`, from `source`.
    ///
    /// Without rules: `strong` is PW-3.3 (71.88 bits), `classic` PW-3.6 (70.71 bits), `legacy` PW-2
    /// (69.06 bits). With rules: PW-5 (Safari's adaptation with swcred's corrections); the result
    /// always satisfies every parsed rule (PW-1.5). Parser diagnostics, an ignored `minlength`, a
    /// fallback to classic and an entropy below 64 bits (PW-6.4) come back as warnings.
    /// - Throws: `infeasible`, `invalidParameter`, `limitExceeded`, or what `source` throws.
    public static func generate<R: RandomSource>(
        style: PasswordStyle = .strong, rules: PasswordRules?, using source: inout R
    ) throws(SWCredError) -> GeneratedPassword {
        switch (style, rules) {
        case (.legacy, nil):
            return try legacy(using: &source)
        case (.legacy, .some):
            throw SWCredError(
                .invalidParameter, "the legacy format has fixed rules; it cannot be combined with password rules")
        default:
            return try PreparedGenerator(style: style, rules: rules).next(using: &source)
        }
    }

    /// Generates one password from a plan, falling back when the plan admits no password.
    static func run<R: RandomSource>(
        _ plan: GenerationPlan, fallback: GenerationPlan?, rules: PasswordRules?, using source: inout R
    ) throws(SWCredError) -> GeneratedPassword {
        try PreparedGenerator(plan: plan, fallback: fallback, rules: rules).next(using: &source)
    }
}
