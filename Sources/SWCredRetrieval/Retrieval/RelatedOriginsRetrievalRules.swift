import SWCredAssociation
import SWCredCore

/// The retrieval rules of `/.well-known/webauthn` as values (asset-links.md §2.1, ROR-F1…F3):
/// https only, redirects followed only to https (at most 5, each reported), status 200, at most
/// 256 KiB (Chrome's limit) while reading, and the media type `application/json` (parameters
/// allowed, as Chrome reads it).
///
/// The HTTPS exchange is the live fetcher's (`SWCredRetrievalLive`), made with
/// ``configuration(_:)``; ``reading(_:)`` turns its report into the body or the reason.
package struct RelatedOriginsRetrievalRules: Sendable, Hashable {
    /// The largest body read (ROR-F3).
    package var maximumBytes: Int
    /// The redirects followed, each to https (ROR-F1).
    package var maximumRedirects: Int

    /// Creates the rules.
    package init(maximumBytes: Int = RelatedOriginsDocument.Limits().maximumBytes, maximumRedirects: Int = 5) {
        self.maximumBytes = maximumBytes
        self.maximumRedirects = maximumRedirects
    }

    /// The file's URL for an RP ID.
    package static func url(rpID: String) -> String { "https://\(rpID)/.well-known/webauthn" }

    /// The path of the file for an RP ID under an `--aasa-dir` folder.
    package static func path(root: String, rpID: String) -> String {
        (root.hasSuffix("/") ? root : root + "/") + rpID + "/.well-known/webauthn"
    }

    /// The fetcher's configuration: `base` (roots, `--resolve`, timeouts) with the 256 KiB cap and
    /// https-only redirects followed (the fetcher refuses a hop to another scheme).
    package func configuration(_ base: RetrievalConfiguration) -> RetrievalConfiguration {
        var configuration = base
        configuration.maximumBodySize = maximumBytes
        configuration.followsRedirects = true
        configuration.maximumRedirects = maximumRedirects
        return configuration
    }

    /// What a client reads from one fetch.
    package struct Reading: Sendable, Hashable {
        /// The body, when every rule passed.
        package var body: [UInt8]?
        /// Why the file was refused (the message names the rule).
        package var failure: String?
        /// The redirects followed (ROR-F1 warnings: some clients are stricter).
        package var redirects: [String]
    }

    /// The body of `result`, or why a client refuses it.
    package func reading(_ result: AASAFetchResult) -> Reading {
        let report = result.report
        let redirects = report.diagnostics.filter { $0.rule == .ad4_4 && $0.severity == .warning }.map(\.message)
        func refused(_ why: String) -> Reading { Reading(body: nil, failure: why, redirects: redirects) }
        if let failure = report.failure {
            if failure.rule == .ad4_6 {
                return refused("\(report.url) is larger than \(maximumBytes) bytes (ROR-F3): \(failure.message)")
            }
            return refused("\(report.url): \(failure.message) (ROR-F1)")
        }
        guard let body = result.body else { return refused("\(report.url): no body (ROR-F1)") }
        guard report.status == 200 else {
            return refused("\(report.url) answered \(report.status ?? 0), not 200 (ROR-F1)")
        }
        guard let type = report.contentType, MediaType.essence(of: type) == "application/json" else {
            let served = report.contentType.map { "'\($0.prefix(200))'" } ?? "no Content-Type"
            return refused("\(report.url) is served as \(served), not application/json (ROR-F2)")
        }
        return Reading(body: body, failure: nil, redirects: redirects)
    }

    /// `result`'s report as `swcred fetch HOST --webauthn` prints it: the redirects followed are
    /// ROR-F1 warnings, a refused file names its ROR-F rule, and the AASA-only content checks
    /// (AD-4.7, AD-3.8) are left out.
    package func report(_ result: AASAFetchResult) -> AASAFetchReport {
        var report = result.report
        let reading = reading(result)
        report.diagnostics.removeAll { $0.rule == .ad4_7 || $0.rule == .ad3_8 }
        for index in report.diagnostics.indices where report.diagnostics[index].rule == .ad4_4 {
            report.diagnostics[index].rule = .rorF1
        }
        if var failure = report.failure {
            failure.rule = failure.rule == .ad4_6 ? .rorF3 : .rorF1
            report.failure = failure
            report.diagnostics.removeAll { $0.severity == .error }
            report.diagnostics.append(Diagnostic(.error, failure.message, rule: failure.rule))
        } else if let failure = reading.failure {
            let rule: RuleID = failure.contains("(ROR-F2)") ? .rorF2 : .rorF1
            report.refuse(RetrievalFailure(rule: rule, domain: RetrievalFailure.httpDomain, code: 0, message: failure))
        } else {
            report.pass(.rorF2, "Content-Type application/json")
        }
        return report
    }
}
