import SWCredAssociation
import SWCredCore
import Testing
@testable import SWCredRetrieval

/// What `swcred fetch` is given, and how a refusal becomes the error it reports (AD-4).
@Suite("Fetch target and refusal errors")
struct FetchTargetTests {
    @Test("AD-4.2: an http URL is kept for the fetcher to refuse; https URLs and host:port name a site")
    func targets() throws {
        #expect(try FetchTarget(argument: "http://example.com/x") == .insecure("http://example.com/x"))
        #expect(try FetchTarget(argument: "HTTPS://Example.COM/") == .host(try RetrievalHost(host: "example.com")))
        #expect(try FetchTarget(argument: "example.com:8443") == .host(try RetrievalHost(host: "example.com", port: 8443)))
        #expect(throws: SWCredError.self) { try FetchTarget(argument: "https://exa mple.com/") }
        #expect(throws: SWCredError.self) { try FetchTarget(argument: "example.com:70000") }
    }

    @Test("AD-4.9 content is malformedAASA; the network is fetchFailed; a retrieval rule is fetchRefused")
    func refusalErrors() {
        let content = RetrievalFailure(rule: .ad4_9, domain: "SWCErrorDomain", code: 4, message: "not JSON")
        #expect(content.error.code == .malformedAASA)
        #expect(content.error.message == "refused by AD-4.9: not JSON (SWCErrorDomain 4)")
        let network = RetrievalFailure(
            rule: .ad4_8, domain: "NSURLErrorDomain", code: -1001, message: "timed out", isNetworkFailure: true)
        #expect(network.error.code == .fetchFailed)
        let redirect = RetrievalFailure(rule: .ad4_5, domain: "SWCErrorDomain", code: 3, message: "redirected")
        #expect(redirect.error.code == .fetchRefused)
    }

    @Test("AD-4.1: an entry's route and the source kind give the HTTP exchange; the report's JSON route keeps cdn, direct and origin")
    func routes() throws {
        let direct = try LiveAssociationSource(kind: .direct, fetcher: NoFetcher())
        let cdn = try LiveAssociationSource(kind: .cdn, fetcher: NoFetcher())
        let plain = AssociationFileRequest(host: "example.com")
        let mode = AssociationFileRequest(host: "example.com", route: .modeDirect)
        #expect(direct.route(for: plain) == .wellKnownThenLegacyRoot)
        #expect(direct.route(for: mode) == .wellKnownOnly)
        #expect(cdn.route(for: plain) == .cdn)
        #expect(cdn.route(for: mode) == .wellKnownOnly)
        #expect(RetrievalRoute.allCases.map(\.rawValue) == ["cdn", "direct", "origin"])
    }
}

/// A fetcher for tests that never reach the network: every fetch is an empty report.
private struct NoFetcher: AssociationFileFetcher {
    func fetch(_ request: AASAFetchRequest) async -> AASAFetchResult {
        AASAFetchResult(report: AASAFetchReport(url: "", route: request.route), body: nil)
    }
}
