package import SWCredAssociation
package import SWCredCore

extension RetrievalFailure {
    /// The refusal as the error a caller reports (AD-4): `malformedAASA` for the file's content
    /// (AD-4.9), `fetchFailed` for the network (connection, TLS trust, timeout), `fetchRefused`
    /// for a retrieval rule (`http`, redirect, status, size). The message names the rule and
    /// Apple's error domain and code.
    package var error: SWCredError {
        let text = "refused by \(rule): \(message) (\(domain) \(code))"
        if rule == "AD-4.9" { return SWCredError(.malformedAASA, text) }
        return SWCredError(isNetworkFailure ? .fetchFailed : .fetchRefused, text)
    }
}

extension TrustEvaluator.Retrieval {
    /// The error of a retrieval without a usable file: `fetchFailed` for the network (or a source
    /// that could not run), `malformedAASA` for a body that does not parse, `fetchRefused` for a
    /// retrieval rule (redirect, status, size, CDN refusal, a missing folder of a directory source).
    package func error(for request: AssociationFileRequest) -> SWCredError {
        let message = problem ?? "could not retrieve the file for \(request.authority)"
        if retrieved.body != nil { return SWCredError(.malformedAASA, message) }
        guard let failure = retrieved.failure else { return SWCredError(.fetchFailed, message) }
        return SWCredError(failure.isNetworkFailure ? .fetchFailed : .fetchRefused, message)
    }
}
