import SWCredAssociation
import SWCredCore

extension AssetLinksRetrievalRules {
    /// `swcred fetch HOST --assetlinks`: the fetch's report with the DAL-F rules and the list's
    /// parse added (asset-links.md §1.8): DAL-F1 (no redirect), DAL-F2 (`application/json`, a
    /// warning: only Google's API needs it), DAL-F3 (1 MiB), DAL-F5 (JSON, not an HTML page: the
    /// single-page-app hint) and DAL-S1 (a strict JSON array). The file is accepted when a device
    /// reads it: every transport rule passed and the body is a statement list.
    package func report(_ fetched: AASAFetchResult) -> AASAFetchResult {
        var result = fetched
        var report = result.report
        func pass(_ rule: RuleID, _ message: String) { report.pass(rule, message) }
        if report.redirected {
            report.diagnostics.append(
                .error(
                    "\(report.url) answered \(report.status ?? 0)\(report.location.map { " to \($0)" } ?? ""): "
                        + "neither Google's API nor a device follows a redirect at .well-known", rule: .dalF1))
        } else if report.status == 200 {
            pass(.dalF1, "answered 200 directly")
        }
        guard report.failure == nil, let body = result.body else {
            if report.failure?.rule == .ad4_6 {
                report.diagnostics.append(.error("the body is larger than \(maximumBytes) bytes", rule: .dalF3))
            }
            result.report = report
            return result
        }
        if hasMediaType(report.contentType) {
            pass(.dalF2, "served as \(mediaType)")
        } else {
            report.diagnostics.append(
                .warning(
                    "served as \(report.contentType ?? "no Content-Type"); Google's API needs \(mediaType) "
                        + "(ERROR_CODE_WRONG_CONTENT_TYPE); a device does not check it", rule: .dalF2))
        }
        pass(.dalF3, "\(body.count) bytes, within \(maximumBytes)")
        let start = body.firstIndex { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if let start, body[start] == UInt8(ascii: "<") {
            report.refuse(
                RetrievalFailure(
                    rule: .dalF5, domain: "swcred", code: 0,
                    message: "the body is HTML, not JSON: a single-page app's catch-all route probably served "
                        + "index.html at /.well-known/assetlinks.json; serve the file itself (exclude /.well-known "
                        + "from the rewrite)"))
            result.report = report
            return result
        }
        pass(.dalF5, "the body is not HTML")
        switch AssetLinksStatementList.parseReportingRule(body, limits: limitsForBody) {
        case .success(let list):
            pass(.dalS1, "a statement list of \(list.elements.count) element\(list.elements.count == 1 ? "" : "s")")
        case .failure(let failure):
            report.refuse(RetrievalFailure(rule: failure.rule, domain: "swcred", code: 0, message: failure.error.message))
        }
        result.report = report
        return result
    }

    private var limitsForBody: AssetLinksStatementList.Limits {
        var limits = AssetLinksStatementList.Limits()
        limits.maximumBytes = maximumBytes
        return limits
    }
}
