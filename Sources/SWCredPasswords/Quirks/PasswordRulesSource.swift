public import SWCredCore

/// Where the rules in force come from, by precedence (PW-7.3).
public enum PasswordRulesOrigin: Sendable, Hashable {
    /// Given explicitly (`--rules`).
    case explicit
    /// Declared by the site or field (`passwordrules` attribute, `UITextInputPasswordRules`).
    case declared
    /// From the quirks file, under this domain key.
    case quirk(domain: String)
    /// None: the strong default.
    case none
}

extension PasswordRules {
    /// Picks the rules in force (PW-7.3).
    ///
    /// **Decision:** explicit rules > rules declared by the site or field > the quirk for the host >
    /// no rules, since quirks exist to fill in for sites that declare no usable rules. Explicit rules
    /// are parsed strictly (a lossy string is an error); declared and quirk rules leniently, as
    /// Apple's parser does, with diagnostics kept.
    /// - Throws: `malformedRules` for lossy explicit rules; `limitExceeded` for oversized rules.
    public static func resolve(
        explicit: String? = nil, declared: String? = nil, quirks: PasswordRulesQuirks? = nil, host: String? = nil
    ) throws(SWCredError) -> (rules: PasswordRules?, origin: PasswordRulesOrigin) {
        if let explicit { return (try PasswordRules(validating: explicit), .explicit) }
        if let declared { return (try PasswordRules.parse(declared), .declared) }
        if let quirks, let host, let (entry, rules) = try quirks.rules(forHost: host) {
            return (rules, .quirk(domain: entry.domain))
        }
        return (nil, .none)
    }
}
