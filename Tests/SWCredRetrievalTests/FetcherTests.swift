import SWCredAssociation
import Foundation
import NIOCore
import SWCredCore
import SWCredRetrieval
import SWCredRetrievalLive
import SWCredTLSTestServer
import Testing

@Suite("Live retrieval against a real HTTPS server on 127.0.0.1")
struct FetcherTests {
    @Test("AD-4.1: a good file on the direct route is accepted, Host and SNI name the site")
    func goodFile() async throws {
        let (result, requests) = try await fetchOnce(routes: [wellKnown: .json(goodAASA)])
        #expect(result.report.accepted)
        #expect(result.report.failure == nil)
        #expect(result.report.status == 200)
        #expect(result.report.bytes == goodAASA.utf8.count)
        #expect(result.report.contentType == "application/json")
        #expect(result.report.redirected == false)
        #expect(result.report.userInstalledRoot)
        #expect(result.report.url.hasPrefix("https://aasa.test:"))
        #expect(result.report.url.hasSuffix(wellKnown))
        #expect(result.body == Array(goodAASA.utf8))
        #expect(requests.count == 1)
        #expect(requests.first?.uri == wellKnown)
        #expect(requests.first?.host?.hasPrefix("aasa.test:") == true)
        #expect(result.report.diagnostics.allSatisfy { $0.severity != .error })
    }

    @Test("Every rule checked is reported: a good file lists AD-4.2 to AD-4.9 as passed, in order")
    func everyRuleReported() async throws {
        var (result, _) = try await fetchOnce(routes: [wellKnown: .json(goodAASA)])
        #expect(result.parse() != nil)
        let passed = result.report.diagnostics.filter { $0.severity == .passed }.map(\.rule)
        #expect(passed == [.ad4_2, .ad4_4, .ad4_5, .ad4_6, .ad4_8, .ad4_7, .ad4_9])
        // Trust came from the user-installed root: a warning, not a pass.
        #expect(result.report.diagnostics.first { $0.rule == .ad4_3 }?.severity == .warning)
        #expect(
            result.report.diagnostics.contains {
                $0.rule == .ad4_6 && $0.message.contains("\(goodAASA.utf8.count) bytes")
            })
    }

    @Test("A refused file lists the rules that passed before the one that refused it")
    func passedBeforeRefusal() async throws {
        let (result, _) = try await fetchOnce(routes: [wellKnown: .redirect(301, to: "https://elsewhere.test/")])
        #expect(result.report.diagnostics.map(\.rule) == [.ad4_3, .ad4_2, .ad4_4])
        #expect(result.report.diagnostics.last?.severity == .error)
    }

    @Test("AD-4.4: 301, 302, 307 and 308 are refused and name the target", arguments: [301, 302, 307, 308])
    func redirectsRefused(status: Int) async throws {
        let target = "https://www.aasa.test/.well-known/apple-app-site-association"
        let (result, requests) = try await fetchOnce(routes: [wellKnown: .redirect(status, to: target)])
        #expect(!result.report.accepted)
        #expect(result.report.redirected)
        #expect(result.report.location == target)
        #expect(result.report.status == status)
        #expect(result.report.failure?.rule == .ad4_4)
        #expect(result.report.failure?.domain == "HTTP")
        #expect(result.report.failure?.code == status)
        #expect(result.report.failure?.message.contains(target) == true)
        #expect(result.body == nil)
        // Not followed: the only request is the first one.
        #expect(requests.count == 1)
    }

    @Test("AD-4.4: a redirect to http is refused and says the target is not https")
    func redirectToHTTP() async throws {
        let (result, _) = try await fetchOnce(routes: [wellKnown: .redirect(302, to: "http://aasa.test/x")])
        #expect(result.report.failure?.rule == .ad4_4)
        #expect(result.report.failure?.message.contains("not even https") == true)
    }

    @Test("AD-4.5: direct-route 4xx and 5xx are refused as HTTP + status", arguments: [403, 404, 410, 500, 503])
    func errorStatusRefused(status: Int) async throws {
        let (result, requests) = try await fetchOnce(routes: [wellKnown: .status(status, body: "nope")], route: .wellKnownOnly)
        #expect(!result.report.accepted)
        #expect(result.report.status == status)
        #expect(result.report.failure?.rule == .ad4_5)
        #expect(result.report.failure?.domain == "HTTP")
        #expect(result.report.failure?.code == status)
        // The direct route never tries the legacy root, even after a 404 (AD-4.1: mode entries).
        #expect(requests.map(\.uri) == [wellKnown])
    }

    @Test("AD-4.1: origin route falls back to the legacy root on 404 only, with a warning")
    func legacyRootFallback() async throws {
        let (result, requests) = try await fetchOnce(
            routes: [wellKnown: .status(404), "/apple-app-site-association": .json(goodAASA)],
            route: .wellKnownThenLegacyRoot
        )
        #expect(result.report.accepted)
        #expect(result.report.legacyRootFallback)
        #expect(result.report.url.hasSuffix("/apple-app-site-association"))
        #expect(!result.report.url.contains(".well-known"))
        #expect(requests.map(\.uri) == [wellKnown, "/apple-app-site-association"])
        let warning = result.report.diagnostics.first { $0.rule == .ad4_1 }
        #expect(warning?.severity == .warning)
        #expect(warning?.message.contains("deprecated") == true)
        #expect(result.body == Array(goodAASA.utf8))
    }

    @Test(
        "AD-4.1 Decision: origin route does not fall back after a 500 or a redirect",
        arguments: [
            TestRoute.status(500), TestRoute.redirect(301, to: "https://aasa.test/elsewhere"),
        ])
    func noFallbackOtherwise(route: TestRoute) async throws {
        let (result, requests) = try await fetchOnce(
            routes: [wellKnown: route, "/apple-app-site-association": .json(goodAASA)],
            route: .wellKnownThenLegacyRoot
        )
        #expect(!result.report.accepted)
        #expect(!result.report.legacyRootFallback)
        #expect(requests.map(\.uri) == [wellKnown])
    }

    @Test("AD-4.1: origin route with both locations missing reports the root's 404")
    func fallbackAlsoMissing() async throws {
        let (result, requests) = try await fetchOnce(routes: [:], route: .wellKnownThenLegacyRoot)
        #expect(!result.report.accepted)
        #expect(result.report.legacyRootFallback)
        #expect(result.report.failure?.code == 404)
        #expect(requests.count == 2)
    }

    @Test("AD-4.1: CDN route asks /a/v1/<host>:<port> with Apple-Proxied-Domain-Name")
    func cdnRoute() async throws {
        try await TLSTestServer.withServer(hostnames: ["aasa.test", "cdn.test"]) { server in
            server.setRoute("/a/v1/aasa.test:\(server.port)", .json(goodAASA))
            let result = try await LiveAssociationFileFetcher.withFetcher(configuration: configuration(for: server)) {
                await $0.fetch(try request(server, route: .cdn))
            }
            #expect(result.report.accepted)
            #expect(result.report.route == .cdn)
            #expect(result.report.url == "https://cdn.test:\(server.port)/a/v1/aasa.test:\(server.port)")
            let recorded = server.requests.first
            #expect(recorded?.headers["apple-proxied-domain-name"] == "aasa.test")
            #expect(recorded?.host?.hasPrefix("cdn.test") == true)
        }
    }

    @Test("AD-4.1: a CDN 4xx/5xx is _SWCErrorDomain 7 with Apple-Failure-Reason and -Details", arguments: [404, 502])
    func cdnFailure(status: Int) async throws {
        try await TLSTestServer.withServer(hostnames: ["aasa.test", "cdn.test"]) { server in
            server.setRoute(
                "/a/v1/aasa.test:\(server.port)",
                .status(
                    status,
                    headers: [
                        ("Apple-Failure-Reason", "SWCERR00301 Timeout"), ("Apple-Failure-Details", "origin slow"),
                    ])
            )
            let result = try await LiveAssociationFileFetcher.withFetcher(configuration: configuration(for: server)) {
                await $0.fetch(try request(server, route: .cdn))
            }
            #expect(!result.report.accepted)
            #expect(result.report.failure?.domain == "_SWCErrorDomain")
            #expect(result.report.failure?.code == 7)
            #expect(result.report.failure?.message.contains("SWCERR00301 Timeout") == true)
            #expect(result.report.failure?.message.contains("origin slow") == true)
        }
    }

    @Test("AD-4.7: a text/html Content-Type is a warning, not a refusal")
    func contentTypeWarning() async throws {
        let (result, _) = try await fetchOnce(routes: [
            wellKnown: .json(goodAASA, contentType: "text/html; charset=utf-8")
        ])
        #expect(result.report.accepted)
        let warning = result.report.diagnostics.first { $0.rule == .ad4_7 }
        #expect(warning?.severity == .warning)
        #expect(warning?.message.contains("text/html") == true)
    }

    @Test("AD-4.7: application/json with parameters and a missing Content-Type")
    func contentTypeVariants() async throws {
        let (ok, _) = try await fetchOnce(routes: [
            wellKnown: .json(goodAASA, contentType: "Application/JSON; charset=utf-8")
        ])
        #expect(!ok.report.diagnostics.contains { $0.rule == .ad4_7 && $0.severity == .warning })
        #expect(ok.report.diagnostics.contains { $0.rule == .ad4_7 && $0.severity == .passed })
        let (missing, _) = try await fetchOnce(routes: [wellKnown: .json(goodAASA, contentType: nil)])
        #expect(missing.report.accepted)
        #expect(missing.report.diagnostics.contains { $0.rule == .ad4_7 && $0.message.contains("missing") })
    }

    @Test("AD-3.8: a signed CMS body is detected and warned about as deprecated")
    func signedBodyWarned() async throws {
        // ContentInfo { contentType signedData, [0] … } with a short-form and a long-form length.
        let oid: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        let short: [UInt8] = [0x30, 0x0F] + oid + [0xA0, 0x02, 0x30, 0x00]
        let long: [UInt8] = [0x30, 0x82, 0x00, 0x0F] + oid + [0xA0, 0x02, 0x30, 0x00]
        for body in [short, long] {
            let (result, _) = try await fetchOnce(routes: [
                wellKnown: .bytes(body, contentType: "application/pkcs7-mime")
            ])
            #expect(result.report.accepted)
            #expect(result.report.diagnostics.contains { $0.rule == .ad3_8 && $0.severity == .warning })
            #expect(!result.report.diagnostics.contains { $0.rule == .ad4_7 && $0.severity == .warning })
        }
        let (plain, _) = try await fetchOnce(routes: [wellKnown: .json(goodAASA)])
        #expect(!plain.report.diagnostics.contains { $0.rule == .ad3_8 })
    }
}

@Suite("AD-4.4 device model: following https redirects (off by default)")
struct RedirectFollowingTests {
    static func fetch(
        _ routes: [String: TestRoute],
        route: RetrievalRoute = .wellKnownOnly,
        maximumRedirects: Int = 5
    ) async throws -> (AASAFetchResult, [RecordedRequest], Int) {
        try await TLSTestServer.withServer(hostnames: ["aasa.test", "www.aasa.test", "cdn.test"], routes: routes) {
            server in
            var config = configuration(for: server)
            config.followsRedirects = true
            config.maximumRedirects = maximumRedirects
            let result = try await LiveAssociationFileFetcher.withFetcher(configuration: config) {
                await $0.fetch(try request(server, route: route))
            }
            return (result, server.requests, server.port)
        }
    }

    @Test("AD-4.4: an https redirect is followed when asked, with a warning per hop")
    func followsHTTPS() async throws {
        let (result, requests, port) = try await Self.fetch([
            wellKnown: .redirect(301, to: "/moved"),
            "/moved": .redirect(302, to: "/final"),
            "/final": .json(goodAASA),
        ])
        #expect(result.report.accepted)
        #expect(result.report.redirected)
        #expect(result.report.url == "https://aasa.test:\(port)/final")
        #expect(requests.map(\.uri) == [wellKnown, "/moved", "/final"])
        #expect(result.report.diagnostics.filter { $0.rule == .ad4_4 && $0.severity == .warning }.count == 2)
    }

    @Test("AD-4.4: a redirect to http is denied even when following (bad scheme)")
    func deniesHTTP() async throws {
        let (result, requests, _) = try await Self.fetch([wellKnown: .redirect(301, to: "http://aasa.test/x")])
        #expect(!result.report.accepted)
        #expect(result.report.failure?.message.contains("bad scheme") == true)
        #expect(result.report.diagnostics.filter { $0.severity == .error }.count == 1)
        #expect(requests.count == 1)
    }

    @Test("AD-4.4: more than the hop limit is refused (-1007)")
    func hopLimit() async throws {
        let (result, requests, _) = try await Self.fetch(
            [wellKnown: .redirect(302, to: wellKnown)], maximumRedirects: 3)
        #expect(!result.report.accepted)
        #expect(result.report.failure?.code == -1007)
        #expect(requests.count == 4)
    }

    @Test("AD-4.4: the CDN route never follows")
    func cdnNeverFollows() async throws {
        try await TLSTestServer.withServer(hostnames: ["aasa.test", "cdn.test"]) { server in
            server.setRoute("/a/v1/aasa.test:\(server.port)", .redirect(301, to: "/elsewhere"))
            server.setRoute("/elsewhere", .json(goodAASA))
            var config = configuration(for: server)
            config.followsRedirects = true
            let result = try await LiveAssociationFileFetcher.withFetcher(configuration: config) {
                await $0.fetch(try request(server, route: .cdn))
            }
            #expect(!result.report.accepted)
            #expect(server.requests.count == 1)
        }
    }
}
