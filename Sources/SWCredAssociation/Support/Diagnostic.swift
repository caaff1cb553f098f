public import SWCredCore

/// How serious a ``Diagnostic`` or lint finding is.
public enum DiagnosticSeverity: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// The input is wrong: the device ignores the item or fails.
    case error
    /// The input works but is probably not what was meant, or is deprecated.
    case warning
    /// Information only.
    case note
    /// A rule that was checked and passed: a retrieval report lists every rule it checked, not
    /// only the ones that objected (`swcred fetch`'s `diagnostics`).
    case passed

    private var rank: Int {
        switch self {
        case .error: 3
        case .warning: 2
        case .note: 1
        case .passed: 0
        }
    }

    /// Orders by seriousness: `passed < note < warning < error`.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}

/// A message about one input item (an entitlement entry, a fetched file, a trust decision), and
/// the one diagnostic type of every module: lint, the entitlement and file parsers, trust and
/// retrieval (whose report names the rule of every diagnostic).
///
/// Diagnostics never change an outcome by themselves; they explain it.
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How serious it is.
    public var severity: DiagnosticSeverity
    /// One sentence for a person.
    public var message: String
    /// The specification rule the diagnostic comes from (`AD-3.8`), when one applies; `swcred
    /// explain` prints it. Code that needs to know which rule spoke reads this, never the message.
    public var rule: RuleID?
    /// The lint id (`SWC105`) of the same condition, when `swcred lint` reports it too; `swcred
    /// explain` prints it. Absent from JSON when `nil`.
    public var id: String?

    /// Creates a diagnostic.
    public init(_ severity: DiagnosticSeverity, _ message: String, rule: RuleID? = nil, id: String? = nil) {
        self.severity = severity
        self.message = message
        self.rule = rule
        self.id = id
    }

    /// An error diagnostic.
    package static func error(_ message: String, rule: RuleID? = nil, id: String? = nil) -> Self {
        .init(.error, message, rule: rule, id: id)
    }
    /// A warning diagnostic.
    package static func warning(_ message: String, rule: RuleID? = nil, id: String? = nil) -> Self {
        .init(.warning, message, rule: rule, id: id)
    }
    /// A note.
    package static func note(_ message: String, rule: RuleID? = nil, id: String? = nil) -> Self {
        .init(.note, message, rule: rule, id: id)
    }
    /// A rule checked and passed.
    package static func passed(_ message: String, rule: RuleID) -> Self {
        .init(.passed, message, rule: rule)
    }

    /// The message, preceded by the lint id when there is one (`SWC005: key 'a' appears …`).
    package var labelledMessage: String { id.map { "\($0): \(message)" } ?? message }

    /// `[id ]severity: message`.
    public var description: String { "\(id.map { "\($0) " } ?? "")\(severity.rawValue): \(message)" }
}
