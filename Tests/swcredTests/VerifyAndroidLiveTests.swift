import Foundation
import SWCredTLSTestServer
import Testing

/// `verify --android-app --direct` against a real HTTPS server on 127.0.0.1: `assetlinks.json`
/// retrieved under DAL-F1…F3 (no redirect, 1 MiB, content type for Google's API).
@Suite("swcred verify --android-app against a real HTTPS server")
struct VerifyAndroidLiveTests {
    static let path = "/.well-known/assetlinks.json"
    static let key = VerifyAndroidTests.releaseKey
    static let list =
        #"[{"relation":["delegate_permission/common.handle_all_urls","delegate_permission/common.get_login_creds"],"#
        + #""target":{"namespace":"android_app","package_name":"com.example.tacos","sha256_cert_fingerprints":[""#
        + key + #""]}}]"#

    static func verify(_ site: String, _ reach: [String], _ ca: String) async throws -> (CLI.Result, [String: Any]) {
        let result = try await CLI.run(
            ["verify", "--android-app", VerifyAndroidTests.tacos, "--host", site, "--direct", "--ca-file", ca]
                + reach + ["--format", "json"])
        let json = try result.json()
        var validator = JSONSchemaValidator.repository
        #expect(try validator.validate(json, against: "verify") == [])
        return (result, json)
    }

    static func rows(_ json: [String: Any]) -> [[String: Any]] { VerifyAndroidTests.androidRows(json) }

    static func verdict(_ row: [String: Any], _ verifier: String) -> (Bool?, String) {
        let verifiers = row["verifiers"] as? [String: [String: Any]]
        return (verifiers?[verifier]?["trusted"] as? Bool, verifiers?[verifier]?["reason"] as? String ?? "")
    }

    @Test("DAL-F1, DAL-Q1: a list served directly with application/json is trusted by both verifiers; fetched once")
    func served() async throws {
        try await FetchCommandTests.withSite(routes: [Self.path: .json(Self.list)]) { server, site, reach, ca in
            let (result, json) = try await Self.verify(site, reach, ca)
            #expect(result.status == 0, "\(result.stderr)")
            let rows = Self.rows(json)
            #expect(rows.count == 2)
            #expect(rows.allSatisfy { $0["trusted"] as? Bool == true && $0["source"] as? String == "direct" })
            #expect(rows.allSatisfy { Self.verdict($0, "google").0 == true })
            #expect(rows.first?["url"] as? String == "https://\(site)\(Self.path)")
            // Both verifiers, both relations: one request.
            #expect(server.requests.filter { $0.uri == Self.path }.count == 1)
        }
    }

    @Test("DAL-F1: a redirect at .well-known is refused, not followed; the reason names its Location; exit 10",
        arguments: [301, 302])
    func redirect(status: Int) async throws {
        let target = "https://www.aasa.test/.well-known/assetlinks.json"
        try await FetchCommandTests.withSite(routes: [Self.path: .redirect(status, to: target)]) {
            server, site, reach, ca in
            let (result, json) = try await Self.verify(site, reach, ca)
            #expect(result.status == 10)
            for row in Self.rows(json) {
                #expect(row["trusted"] as? Bool == false)
                let reason = row["reason"] as? String ?? ""
                #expect(reason.contains("HTTP redirects are not allowed (DAL-F1)"), "\(reason)")
                #expect(reason.contains(target))
                #expect(Self.verdict(row, "google").0 == false)
            }
            #expect(server.requests.count == 1)
        }
    }

    @Test("DAL-F3: a 10 MB body is refused by Content-Length and while reading a chunked one", arguments: [
        TestRoute.Framing.contentLength, .chunked,
    ])
    func tooLarge(framing: TestRoute.Framing) async throws {
        let body = Array(Self.list.utf8) + Array(repeating: UInt8(ascii: " "), count: 10_000_000)
        try await FetchCommandTests.withSite(routes: [Self.path: .bytes(body, framing: framing)]) {
            _, site, reach, ca in
            let (result, json) = try await Self.verify(site, reach, ca)
            #expect(result.status == 10)
            for row in Self.rows(json) {
                #expect(row["trusted"] as? Bool == false)
                #expect((row["reason"] as? String ?? "").contains("larger than 1048576 bytes (DAL-F3)"), "\(row)")
            }
        }
    }

    @Test("DAL-F2: text/html is an error for Google's API only; the device still reads the list (exit 0)")
    func contentType() async throws {
        try await FetchCommandTests.withSite(routes: [Self.path: .json(Self.list, contentType: "text/html")]) {
            _, site, reach, ca in
            let (result, json) = try await Self.verify(site, reach, ca)
            #expect(result.status == 0, "\(result.stderr)")
            for row in Self.rows(json) {
                #expect(row["trusted"] as? Bool == true)
                let (google, reason) = Self.verdict(row, "google")
                #expect(google == false)
                #expect(reason.contains("Google's API needs application/json (DAL-F2"), "\(reason)")
            }
        }
    }
}
