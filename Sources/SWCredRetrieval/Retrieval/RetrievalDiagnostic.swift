/// One rule checked during a retrieval, as it appears in the `fetch` report's `diagnostics`.
///
/// `rule` is the spec identifier of the rule that produced it (`AD-4.4`, `AD-4.7`, …), so a
/// reader can look up exactly why a fetch was refused or warned about.
public struct RetrievalDiagnostic: Sendable, Hashable, Codable {
    /// How much a diagnostic matters.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// The rule refused the file.
        case error
        /// The file was accepted, but a device or a validator would object.
        case warning
        /// Information only (for example "a user-installed root was given but not used").
        case note
        /// The rule was checked and passed: the report lists every rule checked, not only failures.
        case passed
    }

    /// The spec rule, for example `AD-4.6`.
    public var rule: String
    /// How much it matters.
    public var severity: Severity
    /// A sentence for a person.
    public var message: String

    /// Creates a diagnostic.
    public init(rule: String, severity: Severity, message: String) {
        self.rule = rule
        self.severity = severity
        self.message = message
    }
}

/// Why a retrieval failed, in Apple's terms: the error domain and code a device would record
/// (`HTTP` + status, `NSURLErrorDomain` −1103 / −1202 / −1001, `_SWCErrorDomain` 7,
/// `NSCocoaErrorDomain` 3840), and the spec rule that decided it.
public struct RetrievalFailure: Sendable, Hashable, Codable {
    /// The spec rule that refused the file.
    public var rule: String
    /// The error domain (`HTTP`, `NSURLErrorDomain`, `_SWCErrorDomain`, `NSCocoaErrorDomain`, `swcred`).
    public var domain: String
    /// The code within ``domain``.
    public var code: Int
    /// A sentence for a person.
    public var message: String
    /// Whether the network failed (true) or a rule refused an answer that did arrive (false).
    public var isNetworkFailure: Bool

    /// Creates a failure.
    public init(rule: String, domain: String, code: Int, message: String, isNetworkFailure: Bool = false) {
        self.rule = rule
        self.domain = domain
        self.code = code
        self.message = message
        self.isNetworkFailure = isNetworkFailure
    }

    /// `NSURLErrorDomain`.
    public static let urlErrorDomain = "NSURLErrorDomain"
    /// `HTTP`: the code is the HTTP status.
    public static let httpDomain = "HTTP"
    /// `_SWCErrorDomain`, the association daemon's own domain (code 7: the CDN refused).
    public static let swcErrorDomain = "_SWCErrorDomain"
    /// `NSCocoaErrorDomain` (code 3840: the JSON did not parse).
    public static let cocoaErrorDomain = "NSCocoaErrorDomain"
}
