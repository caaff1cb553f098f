public import SWCredCore

extension SWCredError.Code {
    /// A Password Rules string lost part of its content while parsing (exit 65).
    ///
    /// Raised only by the strict entry points (``PasswordRules/init(validating:maximumLength:)``,
    /// ``PasswordGenerator/generate(style:rules:)``); the lenient parser keeps Apple's behaviour and
    /// returns warnings instead. The message names what was lost.
    public static let malformedRules = Self(.malformedRules)

    /// No password satisfies the rules (|V| = 0, PW-1.5) (exit 65).
    ///
    /// **Decision:** exit 65 ("malformed input data") rather than 50: the rules are data given by a
    /// site, a quirks file or the user, and they are what cannot be met. The message names the
    /// conflicting constraints.
    public static let infeasible = Self(.infeasible)

    /// A quirks file could not be loaded: it does not decode, or a key has the wrong type (exit 65).
    public static let malformedQuirks = Self(.malformedQuirks)
}
