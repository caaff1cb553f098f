import SWCredAssociation
import SWCredCore
@testable import SWCredRetrieval
import Testing

/// The retrieval rules of `/.well-known/webauthn` as values (asset-links.md §2.1, ROR-F1…F3),
/// and the `--aasa-dir` layout, without a network.
@Suite("Related-origins retrieval rules")
struct RelatedOriginsRetrievalTests {
    static let url = "https://shop.example.com/.well-known/webauthn"
    static let body = Array(#"{"origins":["https://shop.example.de"]}"#.utf8)

    static func result(
        status: Int? = 200, contentType: String? = "application/json", body: [UInt8]? = body,
        failure: RetrievalFailure? = nil, diagnostics: [Diagnostic] = []
    ) -> AASAFetchResult {
        AASAFetchResult(
            report: AASAFetchReport(
                url: url, route: .wellKnownOnly, status: status, bytes: body?.count ?? 0, contentType: contentType,
                accepted: failure == nil, failure: failure, diagnostics: diagnostics),
            body: body)
    }

    @Test("ROR-F1, ROR-F2: 200 with application/json (parameters and case aside) is read; redirects are kept")
    func accepted() {
        let rules = RelatedOriginsRetrievalRules()
        let hop = Diagnostic(.warning, "followed redirect 302", rule: .ad4_4)
        let reading = rules.reading(Self.result(contentType: "Application/JSON; charset=utf-8", diagnostics: [hop]))
        #expect(reading.body == Self.body)
        #expect(reading.failure == nil)
        #expect(reading.redirects == ["followed redirect 302"])
        let report = rules.report(Self.result(diagnostics: [hop]))
        #expect(report.accepted)
        #expect(report.diagnostics.contains { $0.rule == .rorF1 && $0.severity == .warning })
        #expect(report.diagnostics.contains { $0.rule == .rorF2 && $0.severity == .passed })
    }

    @Test("ROR-F1, ROR-F2, ROR-F3: another status, another media type, a refused fetch and a body over the cap")
    func refused() throws {
        let rules = RelatedOriginsRetrievalRules()
        #expect(rules.reading(Self.result(status: 204)).failure?.contains("ROR-F1") == true)
        #expect(rules.reading(Self.result(contentType: "text/html")).failure?.contains("ROR-F2") == true)
        #expect(rules.reading(Self.result(contentType: nil)).failure?.contains("ROR-F2") == true)
        let tooLarge = RetrievalFailure(rule: .ad4_6, domain: RetrievalFailure.httpDomain, code: -1103, message: "big")
        #expect(rules.reading(Self.result(body: nil, failure: tooLarge)).failure?.contains("ROR-F3") == true)
        #expect(rules.report(Self.result(body: nil, failure: tooLarge)).failure?.rule == .rorF3)
        let html = rules.report(Self.result(contentType: "text/html"))
        #expect(!html.accepted)
        #expect(html.failure?.rule == .rorF2)
        let configuration = rules.configuration(RetrievalConfiguration())
        #expect(configuration.followsRedirects)
        #expect(configuration.maximumBodySize == 1 << 18)
        let path = RelatedOriginsRetrievalRules.path(root: "sites", rpID: "a.example")
        #expect(path == "sites/a.example/.well-known/webauthn")
    }

    @Test("ROR-F1: no source, a missing file and the CDN route give the reason, never a body")
    func sources() async {
        let none = await AssociationSources.relatedOrigins(rpID: "a.example", selection: nil)
        #expect(none.reading.failure?.contains("--aasa-dir") == true)
        let missing = await AssociationSources.relatedOrigins(
            rpID: "a.example", selection: AssociationSourceSelection(.directory("/nonexistent")))
        #expect(missing.location == "/nonexistent/a.example/.well-known/webauthn")
        #expect(missing.reading.body == nil)
        let cdn = await AssociationSources.relatedOrigins(
            rpID: "a.example", selection: AssociationSourceSelection(.live(.cdn)))
        #expect(cdn.reading.failure?.contains("--direct") == true)
    }
}
