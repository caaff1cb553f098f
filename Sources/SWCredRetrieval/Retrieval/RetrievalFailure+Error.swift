import SWCredAssociation
package import SWCredCore

extension RetrievalFailure {
    /// The refusal as the error a caller reports (AD-4): `malformedAASA` for the file's content
    /// (AD-4.9), `malformedAssetLinks` for an `assetlinks.json`'s (DAL-F5, DAL-S1), `fetchFailed` for the network (connection, TLS trust, timeout), `fetchRefused`
    /// for a retrieval rule (`http`, redirect, status, size). The message names the rule and
    /// Apple's error domain and code.
    package var error: SWCredError {
        let text = "refused by \(rule): \(message) (\(domain) \(code))"
        if rule == .ad4_9 { return SWCredError(.malformedAASA, text) }
        // assetlinks.json's content (`fetch --assetlinks`): HTML, not a strict JSON statement list.
        if rule == .dalF5 || rule == .dalS1 { return SWCredError(.malformedAssetLinks, text) }
        return SWCredError(isNetworkFailure ? .fetchFailed : .fetchRefused, text)
    }
}
