import Foundation
import SWCredTLSTestServer
import Testing

/// `swcred fetch HOST --assetlinks` and `swcred passkey … --android-app --direct` against a real
/// HTTPS server on 127.0.0.1 (handed to swcred-fetch).
@Suite("swcred fetch --assetlinks and live Android passkeys")
struct FetchAssetLinksTests {
    static let path = "/.well-known/assetlinks.json"

    static func fetch(_ site: String, _ reach: [String], _ ca: String, json: Bool = true) async throws -> CLI.Result {
        try await CLI.run(["fetch", site, "--assetlinks", "--ca-file", ca] + reach + (json ? ["--format", "json"] : []))
    }

    static func rules(_ report: [String: Any], severity: String) -> [String] {
        FetchCommandTests.diagnostics(report).filter { $0["severity"] as? String == severity }
            .compactMap { $0["rule"] as? String }
    }

    @Test("DAL-F1, DAL-F2, DAL-F3, DAL-F5, DAL-S1: a list served directly is accepted; the body on stdout in text mode")
    func served() async throws {
        try await FetchCommandTests.withSite(routes: [Self.path: .json(VerifyAndroidLiveTests.list)]) {
            server, site, reach, ca in
            let result = try await Self.fetch(site, reach, ca)
            #expect(result.status == 0, "\(result.stderr)")
            let report = try result.json()
            #expect(report["accepted"] as? Bool == true)
            #expect(report["url"] as? String == "https://\(site)\(Self.path)")
            var validator = JSONSchemaValidator.repository
            #expect(try validator.validate(report, against: "fetch") == [])
            let passed = Self.rules(report, severity: "passed")
            for rule in ["DAL-F1", "DAL-F2", "DAL-F3", "DAL-F5", "DAL-S1"] { #expect(passed.contains(rule), "\(passed)") }
            let text = try await Self.fetch(site, reach, ca, json: false)
            #expect(text.status == 0)
            #expect(text.stdout == VerifyAndroidLiveTests.list)
            #expect(text.stderr.contains("accepted: yes"))
            #expect(server.requests.allSatisfy { $0.uri == Self.path })
        }
    }

    @Test("DAL-F1: a redirect at .well-known is refused and not followed (69); the report names the Location")
    func redirect() async throws {
        let target = "https://www.aasa.test/.well-known/assetlinks.json"
        try await FetchCommandTests.withSite(routes: [Self.path: .redirect(301, to: target)]) {
            server, site, reach, ca in
            let result = try await Self.fetch(site, reach, ca)
            #expect(result.status == 69, "\(result.stderr)")
            let report = try result.json()
            #expect(report["accepted"] as? Bool == false)
            #expect(report["location"] as? String == target)
            #expect(Self.rules(report, severity: "error").contains("DAL-F1"))
            #expect(server.requests.count == 1)
        }
    }

    @Test("DAL-F5: an SPA's index.html served at the path is refused (65) with the rewrite hint; DAL-F2 warns")
    func singlePageApp() async throws {
        let html = "<!doctype html><html><body><div id=\"root\"></div></body></html>"
        try await FetchCommandTests.withSite(routes: [Self.path: .json(html, contentType: "text/html")]) {
            _, site, reach, ca in
            let result = try await Self.fetch(site, reach, ca)
            #expect(result.status == 65, "\(result.stderr)")
            let report = try result.json()
            #expect(Self.rules(report, severity: "error").contains("DAL-F5"))
            #expect(Self.rules(report, severity: "warning").contains("DAL-F2"))
            #expect(result.stderr.contains("index.html"), "\(result.stderr)")
        }
    }

    @Test("DAL-Q4: passkey register --android-app --direct is handed to swcred-fetch; a list that cannot be fetched is 11")
    func livePasskeyUnreachable() async throws {
        let home = try CLI.temporaryDirectory("swcred-android-live")
        defer { try? FileManager.default.removeItem(at: home) }
        let options = home.appendingPathComponent("create.json")
        try Data(
            #"""
            {"rp":{"id":"aasa.test","name":"Example"},"user":{"id":"dXNlci0x","name":"alice","displayName":"Alice"},
             "challenge":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8","pubKeyCredParams":[{"type":"public-key","alg":-7}]}
            """#.utf8
        ).write(to: options)
        // An RP ID has no port: aasa.test:443 is sent to 127.0.0.1:443, where nothing listens (refused).
        let result = try await CLI.run(
            ["passkey", "register", options.path, "--android-app", VerifyAndroidTests.tacos, "--direct",
             "--resolve", "aasa.test:443:127.0.0.1", "--format", "json"],
            home: home)
        #expect(result.status == 11, "\(result.stderr)")
        #expect(result.stderr.contains("https://aasa.test/.well-known/assetlinks.json cannot be read"), "\(result.stderr)")
    }
}
