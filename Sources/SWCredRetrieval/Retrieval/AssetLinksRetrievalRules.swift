package import SWCredAssociation
internal import SWCredCore

/// The retrieval rules of `assetlinks.json` and its includes as values (asset-links.md §1.2,
/// DAL-F1…F3): https only, no redirect followed (a 3xx is `ERROR_CODE_REDIRECT` with its
/// `Location`), at most 1 MiB by `Content-Length` and while reading, and `Content-Type`
/// `application/json`, which only Google's API requires (a device ignores it).
///
/// The HTTPS exchange is the live fetcher's (`SWCredRetrievalLive`), made with
/// ``configuration(_:)``; ``reading(_:verifier:)`` turns its report into what a verifier reads.
package struct AssetLinksRetrievalRules: Sendable, Hashable {
    /// The largest list read: 1 MiB, a device's limit (DAL-F3).
    package var maximumBytes: Int
    /// The media type Google's API requires (DAL-F2).
    package var mediaType: String

    /// Creates the rules.
    package init(maximumBytes: Int = 1 << 20, mediaType: String = "application/json") {
        self.maximumBytes = maximumBytes
        self.mediaType = mediaType
    }

    /// The fetcher's configuration for asset links: `base` (roots, `--resolve`, timeouts) with the
    /// 1 MiB cap instead of the AASA file's 128 KB, and redirects never followed (DAL-F1).
    package func configuration(_ base: RetrievalConfiguration) -> RetrievalConfiguration {
        var configuration = base
        configuration.maximumBodySize = maximumBytes
        configuration.followsRedirects = false
        return configuration
    }

    /// What `verifier` reads from one fetch: the body, or Google's error code and a sentence.
    package func reading(_ result: AASAFetchResult, verifier: AssetLinksVerifier) -> AssetLinksFetch {
        let report = result.report
        if report.redirected {
            let target = report.location.map { " to \($0)" } ?? ""
            return .failed(
                .redirect,
                "HTTP redirects are not allowed (DAL-F1): \(report.url) answered \(report.status ?? 0)\(target)")
        }
        if let failure = report.failure {
            if failure.rule == .ad4_6 {
                return .failed(
                    .tooLarge, "\(report.url) is larger than \(maximumBytes) bytes (DAL-F3): \(failure.message)")
            }
            return .failed(.fetchError, "\(report.url): \(failure.message)")
        }
        guard let body = result.body else { return .failed(.fetchError, "\(report.url): no body") }
        if verifier == .google, !hasMediaType(report.contentType) {
            return .failed(
                .wrongContentType,
                "\(report.url) is served as \(report.contentType ?? "no Content-Type"); Google's API needs "
                    + "\(mediaType) (DAL-F2; a device does not check it)")
        }
        return .body(body)
    }

    /// Whether a `Content-Type` header's media type (parameters aside) is ``mediaType``.
    package func hasMediaType(_ header: String?) -> Bool {
        guard let header else { return false }
        let type = header.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        return type.trimmingWhitespace().lowercased() == mediaType
    }
}
