import Foundation
import SWCredTLSTestServer
import Testing

/// `swcred fetch` as a real process against a real HTTPS server on 127.0.0.1, reached through
/// `--resolve` and trusted through `--ca-file`.
@Suite("swcred fetch against a real HTTPS server")
struct FetchCommandTests {
    static let wellKnown = "/.well-known/apple-app-site-association"
    static let good = #"{"webcredentials":{"apps":["ABCDE12345.com.example.app"]}}"#

    /// Runs the CLI off the cooperative pool (it blocks until the process exits).
    static func run(_ arguments: [String]) async throws -> CLI.Result {
        try await CLI.run(arguments)
    }
    /// Starts a server, writes its root to a temporary `ca.pem`, and runs `body` with the
    /// arguments that reach it (`HOST:PORT --resolve … [--ca-file …]`).
    static func withSite<T: Sendable>(
        routes: [String: TestRoute],
        hostnames: [String] = ["aasa.test", "cdn.test"],
        tls: Bool = true,
        _ body: (TLSTestServer, _ site: String, _ reach: [String], _ caFile: String) async throws -> T
    ) async throws -> T {
        try await TLSTestServer.withServer(hostnames: hostnames, routes: routes, tls: tls) { server in
            let directory = try CLI.temporaryDirectory("swcred-fetch")
            defer { try? FileManager.default.removeItem(at: directory) }
            let ca = directory.appendingPathComponent("ca.pem")
            try server.certificateAuthority.writeCertificatePEM(to: ca)
            let reach = hostnames.flatMap { ["--resolve", server.resolveArgument(for: $0)] }
            return try await body(server, "aasa.test:\(server.port)", reach, ca.path)
        }
    }

    static func diagnostics(_ json: [String: Any]) -> [[String: Any]] {
        json["diagnostics"] as? [[String: Any]] ?? []
    }

    @Test("AD-4.1: a good file is accepted (exit 0); JSON report and body in text mode")
    func goodFile() async throws {
        try await Self.withSite(routes: [Self.wellKnown: .json(Self.good)]) { server, site, reach, ca in
            let json = try await Self.run(["fetch", site] + reach + ["--ca-file", ca, "--format", "json"])
            #expect(json.status == 0, "\(json.stderr)")
            let report = try json.json()
            #expect(report["schema"] as? String == "swcred/1")
            #expect(report["accepted"] as? Bool == true)
            #expect(report["status"] as? Int == 200)
            #expect(report["bytes"] as? Int == Self.good.utf8.count)
            #expect(report["contentType"] as? String == "application/json")
            #expect(report["redirected"] as? Bool == false)
            #expect(report["url"] as? String == "https://\(site)\(Self.wellKnown)")
            #expect(report["userInstalledRoot"] as? Bool == true)
            var validator = JSONSchemaValidator.repository
            #expect(try validator.validate(report, against: "fetch") == [])

            let text = try await Self.run(["fetch", site] + reach + ["--ca-file", ca])
            #expect(text.status == 0)
            #expect(text.stdout == Self.good)
            #expect(text.stderr.contains("accepted: yes"))
            // The Host header named the site although the connection went to 127.0.0.1.
            #expect(server.requests.allSatisfy { $0.host == site })
        }
    }

    @Test("-o writes the body to a file and keeps stdout free")
    func outputFile() async throws {
        try await Self.withSite(routes: [Self.wellKnown: .json(Self.good)]) { _, site, reach, ca in
            let directory = try CLI.temporaryDirectory("swcred-fetch-out")
            defer { try? FileManager.default.removeItem(at: directory) }
            let out = directory.appendingPathComponent("aasa.json")
            let result = try await Self.run(["fetch", site] + reach + ["--ca-file", ca, "-o", out.path])
            #expect(result.status == 0)
            #expect(result.stdout.isEmpty)
            #expect(try String(contentsOf: out, encoding: .utf8) == Self.good)
        }
    }

    @Test("AD-4.4: 301 and 302 are refused (exit 69) and the target is named", arguments: [301, 302])
    func redirects(status: Int) async throws {
        let target = "https://www.aasa.test/.well-known/apple-app-site-association"
        try await Self.withSite(routes: [Self.wellKnown: .redirect(status, to: target)]) { server, site, reach, ca in
            let result = try await Self.run(["fetch", site] + reach + ["--ca-file", ca, "--format", "json"])
            #expect(result.status == 69)
            let report = try result.json()
            #expect(report["accepted"] as? Bool == false)
            #expect(report["redirected"] as? Bool == true)
            #expect(report["location"] as? String == target)
            #expect(report["status"] as? Int == status)
            var validator = JSONSchemaValidator.repository
            #expect(try validator.validate(report, against: "fetch") == [])
            #expect(
                try validator.validate(
                    try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)), against: "error") == [])
            let error = try result.errorJSON()
            #expect(error["code"] as? String == "fetchRefused")
            let message = error["message"] as? String ?? ""
            #expect(message.contains("AD-4.4"))
            #expect(message.contains(target))
            #expect(server.requests.count == 1)
        }
    }

    @Test("AD-4.4: --follow-redirects models the device: an https hop is followed with a warning (exit 0)")
    func followRedirects() async throws {
        let routes: [String: TestRoute] = [Self.wellKnown: .redirect(301, to: "/final"), "/final": .json(Self.good)]
        try await Self.withSite(routes: routes) { _, site, reach, ca in
            let result = try await Self.run(
                ["fetch", site, "--follow-redirects"] + reach + ["--ca-file", ca, "--format", "json"]
            )
            #expect(result.status == 0, "\(result.stderr)")
            let report = try result.json()
            #expect(report["url"] as? String == "https://\(site)/final")
            #expect(report["redirected"] as? Bool == true)
            #expect(
                Self.diagnostics(report).contains {
                    $0["rule"] as? String == "AD-4.4" && $0["severity"] as? String == "warning"
                }
            )
        }
    }

    @Test("AD-4.5: 404 and 500 are refused (exit 69)", arguments: [404, 500])
    func errorStatus(status: Int) async throws {
        try await Self.withSite(routes: [Self.wellKnown: .status(status)]) { server, site, reach, ca in
            let result = try await Self.run(
                ["fetch", site, "--mode-entry"] + reach + ["--ca-file", ca, "--format", "json"])
            #expect(result.status == 69)
            let report = try result.json()
            #expect(report["status"] as? Int == status)
            let failure = report["failure"] as? [String: Any]
            #expect(failure?["rule"] as? String == "AD-4.5")
            #expect(failure?["domain"] as? String == "HTTP")
            #expect(failure?["code"] as? Int == status)
            #expect(server.requests.map(\.uri) == [Self.wellKnown])
        }
    }

    @Test("AD-4.1: the legacy root is used after a 404, with a warning (exit 0)")
    func legacyRoot() async throws {
        let routes: [String: TestRoute] = [
            Self.wellKnown: .status(404), "/apple-app-site-association": .json(Self.good),
        ]
        try await Self.withSite(routes: routes) { _, site, reach, ca in
            let result = try await Self.run(
                ["fetch", site, "--direct"] + reach + ["--ca-file", ca, "--format", "json"])
            #expect(result.status == 0)
            let report = try result.json()
            #expect(report["legacyRootFallback"] as? Bool == true)
            #expect(report["url"] as? String == "https://\(site)/apple-app-site-association")
            #expect(
                Self.diagnostics(report).contains {
                    $0["rule"] as? String == "AD-4.1" && $0["severity"] as? String == "warning"
                })
        }
    }

    @Test(
        "AD-4.6: a body of 131073 bytes is refused (exit 69) without reading past the cap",
        arguments: [
            TestRoute.Framing.contentLength, .chunked,
        ])
    func overCap(framing: TestRoute.Framing) async throws {
        var route = TestRoute.bytes([UInt8](repeating: 0x20, count: 131_073), framing: framing)
        route.chunkSize = 8192
        try await Self.withSite(routes: [Self.wellKnown: route]) { _, site, reach, ca in
            let result = try await Self.run(["fetch", site] + reach + ["--ca-file", ca, "--format", "json"])
            #expect(result.status == 69)
            let report = try result.json()
            #expect((report["bytes"] as? Int ?? .max) <= 131_073)
            let failure = report["failure"] as? [String: Any]
            #expect(failure?["code"] as? Int == -1103)
            #expect(failure?["rule"] as? String == "AD-4.6")
        }
    }

    @Test("AD-4.6: exactly 131072 bytes are accepted")
    func atCap() async throws {
        let body = "{" + String(repeating: " ", count: 131_070) + "}"
        try await Self.withSite(routes: [Self.wellKnown: .json(body)]) { _, site, reach, ca in
            let result = try await Self.run(["fetch", site] + reach + ["--ca-file", ca, "--format", "json"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try result.json()["bytes"] as? Int == 131_072)
        }
    }

    @Test("AD-4.8: a server dripping bytes past --timeout is refused (exit 69, -1001)")
    func drip() async throws {
        // 300 bytes, one every 100 ms (about 30 s), against --timeout 3.
        let body = Array((Self.good + String(repeating: " ", count: 300 - Self.good.utf8.count)).utf8)
        var route = TestRoute.bytes(body, framing: .chunked)
        route.chunkSize = 1
        route.dripInterval = .milliseconds(100)
        try await Self.withSite(routes: [Self.wellKnown: route]) { server, site, reach, ca in
            let result = try await Self.run(
                ["fetch", site] + reach + ["--ca-file", ca, "--timeout", "3", "--format", "json"])
            #expect(result.status == 69)
            // Cut off by the timeout: the client went away before the server finished dripping.
            let record = try await server.waitForResponseEnd(index: 0, timeout: .seconds(60))
            #expect(record?.clientClosed == true)
            #expect((record?.bytesSent ?? .max) < body.count)
            let failure = try result.json()["failure"] as? [String: Any]
            #expect(failure?["code"] as? Int == -1001)
            #expect(try result.errorJSON()["code"] as? String == "fetchFailed")
        }
    }

    @Test("AD-4.2: an http:// source is refused (exit 69) and nothing reaches the server")
    func httpRefused() async throws {
        try await Self.withSite(routes: [Self.wellKnown: .json(Self.good)], tls: false) { server, site, reach, _ in
            let result = try await Self.run(
                ["fetch", "http://\(site)\(Self.wellKnown)"] + reach + ["--format", "json"])
            #expect(result.status == 69)
            #expect((try result.json()["failure"] as? [String: Any])?["rule"] as? String == "AD-4.2")
            #expect((try result.errorJSON()["message"] as? String ?? "").contains("AD-4.2"))
            #expect(server.requests.isEmpty)
        }
    }

    @Test("AD-4.3: an untrusted certificate is refused without --ca-file and accepted with it")
    func trust() async throws {
        try await Self.withSite(routes: [Self.wellKnown: .json(Self.good)]) { _, site, reach, ca in
            let without = try await Self.run(["fetch", site] + reach + ["--format", "json"])
            #expect(without.status == 69)
            let failure = try without.json()["failure"] as? [String: Any]
            #expect(failure?["code"] as? Int == -1202)
            #expect(failure?["rule"] as? String == "AD-4.3")
            #expect(try without.errorJSON()["code"] as? String == "fetchFailed")

            let with = try await Self.run(["fetch", site] + reach + ["--ca-file", ca, "--format", "json"])
            #expect(with.status == 0)
            #expect(try with.json()["userInstalledRoot"] as? Bool == true)
        }
    }

    @Test("AD-4.7: a text/html Content-Type is warned about, and the file is still accepted")
    func contentType() async throws {
        try await Self.withSite(routes: [Self.wellKnown: .json(Self.good, contentType: "text/html")]) {
            _, site, reach, ca in
            let json = try await Self.run(["fetch", site] + reach + ["--ca-file", ca, "--format", "json"])
            #expect(json.status == 0)
            #expect(
                Self.diagnostics(try json.json()).contains {
                    $0["rule"] as? String == "AD-4.7" && $0["severity"] as? String == "warning"
                })
            let text = try await Self.run(["fetch", site] + reach + ["--ca-file", ca, "-o", "/dev/null"])
            #expect(text.stderr.contains("warning [AD-4.7]"))
            #expect(text.stderr.contains("text/html"))
        }
    }

    @Test(
        "AD-4.9: malformed and deeply nested JSON are refused with a parse diagnostic (exit 65)",
        arguments: [
            #"{"webcredentials":"#, String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000),
        ])
    func malformed(body: String) async throws {
        try await Self.withSite(routes: [Self.wellKnown: .json(body)]) { _, site, reach, ca in
            let result = try await Self.run(["fetch", site] + reach + ["--ca-file", ca, "--format", "json"])
            #expect(result.status == 65)
            let report = try result.json()
            #expect(report["accepted"] as? Bool == false)
            let failure = report["failure"] as? [String: Any]
            #expect(failure?["rule"] as? String == "AD-4.9")
            #expect(failure?["code"] as? Int == 3840)
            #expect(try result.errorJSON()["code"] as? String == "malformedAASA")
        }
    }

    @Test("AD-4.1: --cdn asks the CDN route with Apple-Proxied-Domain-Name")
    func cdn() async throws {
        try await Self.withSite(routes: [:]) { server, site, reach, ca in
            server.setRoute("/a/v1/\(site)", .json(Self.good))
            let base = "https://cdn.test:\(server.port)/a/v1/"
            let result = try await Self.run(
                ["fetch", site, "--cdn", "--cdn-base-url", base] + reach + ["--ca-file", ca, "--format", "json"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try result.json()["route"] as? String == "cdn")
            #expect(server.requests.first?.headers["apple-proxied-domain-name"] == "aasa.test")
        }
    }

    @Test("Bad arguments: malformed --resolve is a usage error (64), a missing CA file 66, two routes 64")
    func badArguments() async throws {
        let resolve = try await Self.run(["fetch", "aasa.test", "--resolve", "aasa.test:443"])
        #expect(resolve.status == 64)
        let missing = try await Self.run(["fetch", "aasa.test", "--ca-file", "/nonexistent/ca.pem"])
        #expect(missing.status == 66)
        let both = try await Self.run(["fetch", "aasa.test", "--cdn", "--direct"])
        #expect(both.status == 64)
        let host = try await Self.run(["fetch", "aasa.test/../x"])
        #expect(host.status == 50)
    }
}
