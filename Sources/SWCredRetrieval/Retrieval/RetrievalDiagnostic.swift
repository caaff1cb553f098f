package import SWCredCore

/// Why a retrieval failed, in Apple's terms: the error domain and code a device would record
/// (`HTTP` + status, `NSURLErrorDomain` −1103 / −1202 / −1001, `_SWCErrorDomain` 7,
/// `NSCocoaErrorDomain` 3840), and the spec rule that decided it.
package struct RetrievalFailure: Sendable, Hashable, Codable {
    /// The spec rule that refused the file.
    package var rule: RuleID
    /// The error domain (`HTTP`, `NSURLErrorDomain`, `_SWCErrorDomain`, `NSCocoaErrorDomain`, `swcred`).
    package var domain: String
    /// The code within ``domain``.
    package var code: Int
    /// A sentence for a person.
    package var message: String
    /// Whether the network failed (true) or a rule refused an answer that did arrive (false).
    package var isNetworkFailure: Bool

    /// Creates a failure.
    package init(rule: RuleID, domain: String, code: Int, message: String, isNetworkFailure: Bool = false) {
        self.rule = rule
        self.domain = domain
        self.code = code
        self.message = message
        self.isNetworkFailure = isNetworkFailure
    }

    /// `NSURLErrorDomain`.
    package static let urlErrorDomain = "NSURLErrorDomain"
    /// `HTTP`: the code is the HTTP status.
    package static let httpDomain = "HTTP"
    /// `_SWCErrorDomain`, the association daemon's own domain (code 7: the CDN refused).
    package static let swcErrorDomain = "_SWCErrorDomain"
    /// `NSCocoaErrorDomain` (code 3840: the JSON did not parse).
    package static let cocoaErrorDomain = "NSCocoaErrorDomain"
}
