import Foundation
import SWCredTLSTestServer
import Testing

/// `swcred fetch HOST --webauthn` and `passkey … --origin --direct` against a real HTTPS server:
/// the related-origins retrieval rules (asset-links.md §2.4, ROR-F1…F3), hostile answers included.
@Suite("swcred fetch --webauthn against a real HTTPS server")
struct FetchWebAuthnTests {
    static let path = "/.well-known/webauthn"
    static let good = #"{"origins":["https://shop.example.de"]}"#

    static func withSite<T: Sendable>(
        routes: [String: TestRoute],
        _ body: (TLSTestServer, _ site: String, _ reach: [String]) async throws -> T
    ) async throws -> T {
        try await TLSTestServer.withServer(hostnames: ["shop.example.com"], routes: routes, tls: true) { server in
            let directory = try CLI.temporaryDirectory("swcred-ror-fetch")
            defer { try? FileManager.default.removeItem(at: directory) }
            let ca = directory.appendingPathComponent("ca.pem")
            try server.certificateAuthority.writeCertificatePEM(to: ca)
            let reach = ["--resolve", server.resolveArgument(for: "shop.example.com"), "--ca-file", ca.path]
            return try await body(server, "shop.example.com:\(server.port)", reach)
        }
    }

    static func rules(_ report: [String: Any]) -> [String] {
        (report["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
    }

    @Test("ROR-F1, ROR-F2: a good file behind an https redirect is accepted; the hop is reported")
    func goodFile() async throws {
        let routes: [String: TestRoute] = [
            Self.path: .redirect(302, to: "/webauthn.json"), "/webauthn.json": .json(Self.good),
        ]
        try await Self.withSite(routes: routes) { _, site, reach in
            let json = try await CLI.run(["fetch", site, "--webauthn", "--format", "json"] + reach)
            #expect(json.status == 0, "\(json.stderr)")
            let report = try json.json()
            #expect(report["accepted"] as? Bool == true)
            #expect(report["redirected"] as? Bool == true)
            #expect(Self.rules(report).contains("ROR-F1"))
            #expect(!Self.rules(report).contains("AD-4.7"))
            let text = try await CLI.run(["fetch", site, "--webauthn"] + reach)
            #expect(text.stdout == Self.good)
        }
    }

    @Test("ROR-F1: a redirect to http is refused (69), naming the rule")
    func redirectToHTTP() async throws {
        let routes: [String: TestRoute] = [Self.path: .redirect(301, to: "http://shop.example.com/webauthn")]
        try await Self.withSite(routes: routes) { _, site, reach in
            let result = try await CLI.run(["fetch", site, "--webauthn", "--format", "json"] + reach)
            #expect(result.status == 69)
            let failure = try result.json()["failure"] as? [String: Any]
            #expect(failure?["rule"] as? String == "ROR-F1")
        }
    }

    @Test(
        "ROR-F3: a 10 MB body is refused (69) without reading it all",
        arguments: [TestRoute.Framing.contentLength, .chunked])
    func hugeBody(framing: TestRoute.Framing) async throws {
        var route = TestRoute.bytes([UInt8](repeating: 0x20, count: 10_000_000), framing: framing)
        route.chunkSize = 65_536
        try await Self.withSite(routes: [Self.path: route]) { _, site, reach in
            let result = try await CLI.run(["fetch", site, "--webauthn", "--format", "json"] + reach)
            #expect(result.status == 69)
            let report = try result.json()
            #expect((report["bytes"] as? Int ?? .max) <= (1 << 18) + 65_536)
            #expect((report["failure"] as? [String: Any])?["rule"] as? String == "ROR-F3")
        }
    }

    @Test("ROR-F2: a wrong content type is refused (69); parameters are allowed")
    func contentType() async throws {
        try await Self.withSite(routes: [Self.path: .json(Self.good, contentType: "text/html")]) { _, site, reach in
            let result = try await CLI.run(["fetch", site, "--webauthn", "--format", "json"] + reach)
            #expect(result.status == 69)
            #expect((try result.json()["failure"] as? [String: Any])?["rule"] as? String == "ROR-F2")
        }
        let charset = TestRoute.json(Self.good, contentType: "Application/JSON; charset=utf-8")
        try await Self.withSite(routes: [Self.path: charset]) { _, site, reach in
            let result = try await CLI.run(["fetch", site, "--webauthn"] + reach)
            #expect(result.status == 0, "\(result.stderr)")
        }
    }
}
