import SWCredAssociation
package import SWCredCore

extension RetrievalFailure {
    /// The refusal as the error a caller reports (AD-4): `malformedAASA` for the file's content
    /// (AD-4.9), `fetchFailed` for the network (connection, TLS trust, timeout), `fetchRefused`
    /// for a retrieval rule (`http`, redirect, status, size). The message names the rule and
    /// Apple's error domain and code.
    package var error: SWCredError {
        let text = "refused by \(rule): \(message) (\(domain) \(code))"
        if rule == .ad4_9 { return SWCredError(.malformedAASA, text) }
        return SWCredError(isNetworkFailure ? .fetchFailed : .fetchRefused, text)
    }
}
