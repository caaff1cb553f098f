/// A generated password with its exact entropy (PW-6.1).
///
/// `description` is redacted so that the password never reaches a log by accident.
public struct GeneratedPassword: Sendable, Hashable, CustomStringConvertible {
    /// The password.
    public let password: String
    /// The style actually produced (with rules, Safari's adaptation may choose `classic`).
    public let style: PasswordStyle
    /// |V|: how many passwords the generator could have returned, all equally likely.
    package let outputCount: BigUInt
    /// H = log2 |V| in bits (PW-6.1); print with two decimals.
    public let entropyBits: Double
    /// The rules in force (canonical), or `nil` for none.
    public let rules: PasswordRules?
    /// The rules the password was checked against: ``rules`` without `minlength` when it exceeds
    /// `maxlength` (PW-5.2 ignores it), else ``rules``. The password always satisfies these.
    public let enforcedRules: PasswordRules?
    /// `false` when a deterministic test source produced the password (PW-1.1).
    public let isSecret: Bool
    /// Warnings to show: parser diagnostics, ignored `minlength`, entropy below 64 bits, fallbacks.
    public internal(set) var warnings: [String]
    /// `true` when a block list (PW-3.5) removed candidates: ``entropyBits`` is then an upper bound.
    public internal(set) var entropyIsUpperBound = false

    /// The entropy below which a warning is added (PW-6.4).
    public static let lowEntropyThreshold = 64.0

    /// Redacted: `GeneratedPassword(style: strong, entropyBits: 71.88)`.
    public var description: String {
        "GeneratedPassword(style: \(style.rawValue), entropyBits: \(Self.formatBits(entropyBits)))"
    }

    /// H with two decimals, as reports print it (PW-6.1).
    public static func formatBits(_ bits: Double) -> String {
        let hundredths = (bits * 100).rounded()
        let whole = Int(hundredths / 100)
        let fraction = Int(hundredths) - whole * 100
        return "\(whole)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}
