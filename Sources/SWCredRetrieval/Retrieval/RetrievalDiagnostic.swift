/// One rule checked during a retrieval, as it appears in the `fetch` report's `diagnostics`.
///
/// `rule` is the spec identifier of the rule that produced it (`AD-4.4`, `AD-4.7`, …), so a
/// reader can look up exactly why a fetch was refused or warned about.
package struct RetrievalDiagnostic: Sendable, Hashable, Codable {
    /// How much a diagnostic matters.
    package enum Severity: String, Sendable, Hashable, Codable {
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
    package var rule: String
    /// How much it matters.
    package var severity: Severity
    /// A sentence for a person.
    package var message: String

    /// Creates a diagnostic.
    package init(rule: String, severity: Severity, message: String) {
        self.rule = rule
        self.severity = severity
        self.message = message
    }
}

/// Why a retrieval failed, in Apple's terms: the error domain and code a device would record
/// (`HTTP` + status, `NSURLErrorDomain` −1103 / −1202 / −1001, `_SWCErrorDomain` 7,
/// `NSCocoaErrorDomain` 3840), and the spec rule that decided it.
package struct RetrievalFailure: Sendable, Hashable, Codable {
    /// The spec rule that refused the file.
    package var rule: String
    /// The error domain (`HTTP`, `NSURLErrorDomain`, `_SWCErrorDomain`, `NSCocoaErrorDomain`, `swcred`).
    package var domain: String
    /// The code within ``domain``.
    package var code: Int
    /// A sentence for a person.
    package var message: String
    /// Whether the network failed (true) or a rule refused an answer that did arrive (false).
    package var isNetworkFailure: Bool

    /// Creates a failure.
    package init(rule: String, domain: String, code: Int, message: String, isNetworkFailure: Bool = false) {
        self.rule = rule
        self.domain = domain
        self.code = code
        self.message = message
        self.isNetworkFailure = isNetworkFailure
    }

    /// `NSURLErrorDomain`.
    package static let urlErrorDomain = "NSURLErrorDomain"
    /// `HTTP`: the code is the HTTP status.
    static let httpDomain = "HTTP"
    /// `_SWCErrorDomain`, the association daemon's own domain (code 7: the CDN refused).
    static let swcErrorDomain = "_SWCErrorDomain"
    /// `NSCocoaErrorDomain` (code 3840: the JSON did not parse).
    static let cocoaErrorDomain = "NSCocoaErrorDomain"
}
