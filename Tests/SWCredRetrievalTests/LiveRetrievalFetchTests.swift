import Foundation
import SWCredAssociation
import SWCredCore
import SWCredRetrieval
import SWCredRetrievalLive
import SWCredTLSTestServer
import Testing

/// ``LiveRetrieval/fetch(_:route:configuration:)``: the flow of `swcred fetch`.
@Suite("Live retrieval: one explicit fetch")
struct LiveRetrievalFetchTests {
    init() { LiveRetrieval.installHTTPS() }

    @Test("AD-4.2: an http:// target is refused before a connection, and nothing is parsed")
    func insecureTarget() async throws {
        try await TLSTestServer.withServer(hostnames: ["aasa.test"], routes: [wellKnown: .json(goodAASA)], tls: false) {
            server in
            let target = try FetchTarget(argument: "http://127.0.0.1:\(server.port)\(wellKnown)")
            let (result, file) = try await LiveRetrieval.fetch(
                target, route: .wellKnownThenLegacyRoot, configuration: RetrievalConfiguration())
            #expect(!result.report.accepted)
            #expect(result.report.failure?.rule == .ad4_2)
            #expect(file == nil)
            #expect(server.requests.isEmpty)
        }
    }

    @Test("AD-4.3: a site's file is fetched with user-installed roots allowed, and parsed")
    func siteTarget() async throws {
        try await TLSTestServer.withServer(hostnames: ["aasa.test"], routes: [wellKnown: .json(goodAASA)]) { server in
            let target = try FetchTarget(argument: "aasa.test:\(server.port)")
            let (result, file) = try await LiveRetrieval.fetch(
                target, route: .wellKnownOnly, configuration: configuration(for: server))
            #expect(result.report.accepted)
            #expect(result.report.userInstalledRoot)
            #expect(file != nil)
        }
    }
}
