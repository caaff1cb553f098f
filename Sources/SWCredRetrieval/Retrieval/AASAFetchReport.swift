package import SWCredCore
package import SWCredAssociation
package import SWCredCore

/// Everything a retrieval checked: the `fetch` object of `swcred verify` and `swcred fetch`.
///
/// JSON fields (`spec/cli.md`): `url`, `status`, `bytes`, `contentType`, `redirected`,
/// `accepted`, `diagnostics`, and in addition `route`, `location`, `failure`,
/// `userInstalledRoot` and `legacyRootFallback`. Every field is encoded, `null` included, so the
/// JSON shape never changes with the outcome.
package struct AASAFetchReport: Sendable, Hashable, Codable {
    /// The last URL requested (the legacy root after a fallback).
    package var url: String
    /// The route taken.
    package var route: RetrievalRoute
    /// The HTTP status of the last answer, nil when no answer arrived.
    @ExplicitNull package var status: Int?
    /// Body bytes received (at most the cap plus one: reading stops at byte 131 073).
    package var bytes: Int
    /// The `Content-Type` header of the last answer.
    @ExplicitNull package var contentType: String?
    /// Whether the answer was a redirect (3xx), which is never followed (AD-4.4).
    package var redirected: Bool
    /// The redirect's `Location`, when there was one.
    @ExplicitNull package var location: String?
    /// Whether the file passed every retrieval rule (and, once parsed, the parse).
    package var accepted: Bool
    /// Whether the server's chain was trusted only through a user-installed root (`--ca-file`).
    package var userInstalledRoot: Bool
    /// Whether the file came from the legacy root location after a 404 at `.well-known`.
    package var legacyRootFallback: Bool
    /// Why the file was refused, nil when accepted.
    @ExplicitNull package var failure: RetrievalFailure?
    /// Every rule that had something to say, in the order checked.
    package var diagnostics: [Diagnostic]

    /// Creates a report.
    package init(
        url: String,
        route: RetrievalRoute,
        status: Int? = nil,
        bytes: Int = 0,
        contentType: String? = nil,
        redirected: Bool = false,
        location: String? = nil,
        accepted: Bool = false,
        userInstalledRoot: Bool = false,
        legacyRootFallback: Bool = false,
        failure: RetrievalFailure? = nil,
        diagnostics: [Diagnostic] = []
    ) {
        self.url = url
        self.route = route
        self.status = status
        self.bytes = bytes
        self.contentType = contentType
        self.redirected = redirected
        self.location = location
        self.accepted = accepted
        self.userInstalledRoot = userInstalledRoot
        self.legacyRootFallback = legacyRootFallback
        self.failure = failure
        self.diagnostics = diagnostics
    }

    /// Marks the report refused by `failure` and adds it as an error diagnostic.
    package mutating func refuse(_ failure: RetrievalFailure) {
        accepted = false
        self.failure = failure
        diagnostics.append(Diagnostic(.error, failure.message, rule: failure.rule))
    }

    /// Records that `rule` was checked and passed.
    package mutating func pass(_ rule: RuleID, _ message: String) {
        diagnostics.append(Diagnostic(.passed, message, rule: rule))
    }
}

/// A fetch's report and, when the transport rules passed, the body.
package struct AASAFetchResult: Sendable, Hashable {
    /// What was checked.
    package var report: AASAFetchReport
    /// The body, present only when a 2xx answer arrived within the size cap.
    package var body: [UInt8]?

    /// Creates a result.
    package init(report: AASAFetchReport, body: [UInt8]?) {
        self.report = report
        self.body = body
    }
}

/// Fetches association files: the network as a one-method protocol, so daemons and commands can
/// be given a live fetcher or a test one.
package protocol AssociationFileFetcher: Sendable {
    /// Fetches one file under the retrieval rules. Never throws: every failure is in the report.
    func fetch(_ request: AASAFetchRequest) async -> AASAFetchResult
}
