package import SWCredCore

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
