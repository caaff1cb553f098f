import Foundation
import SWCredTLSTestServer
import Testing

/// `swcred verify --direct/--cdn` and `swcred associations` with a live source, as real processes
/// against a real HTTPS server on 127.0.0.1.
@Suite("Live sources in verify and associations")
struct FetchVerifyAndAssociationsTests {
    static let appID = "ABCDE12345.com.example.app"
    static let listing = #"{"webcredentials":{"apps":["ABCDE12345.com.example.app"]}}"#

    /// Writes an entitlements JSON file for `domains` into `directory`.
    static func entitlements(_ domains: [String], in directory: URL, developmentSigned: Bool = true) throws -> String {
        let object: [String: Any] = [
            "application-identifier": appID,
            "com.apple.developer.associated-domains": domains,
            "get-task-allow": developmentSigned,
        ]
        let url = directory.appendingPathComponent("app.json")
        try JSONSerialization.data(withJSONObject: object).write(to: url)
        return url.path
    }

    static func association(_ report: [String: Any]) -> [String: Any] {
        (report["associations"] as? [[String: Any]])?.first ?? [:]
    }

    @Test("AD-4.3: verify --direct trusts a developer entry through --ca-file in developer mode")
    func verifyDeveloperEntry() async throws {
        try await FetchCommandTests.withSite(routes: [FetchCommandTests.wellKnown: .json(Self.listing)]) {
            server, site, reach, ca in
            let directory = try CLI.temporaryDirectory("swcred-verify-live")
            defer { try? FileManager.default.removeItem(at: directory) }
            let app = try Self.entitlements(["webcredentials:\(site)?mode=developer"], in: directory)
            let result = try await FetchCommandTests.run(
                ["verify", "--entitlements", app, "--direct", "--developer-mode", "--ca-file", ca] + reach + [
                    "--format", "json",
                ]
            )
            #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
            let report = try result.json()
            #expect(report["trusted"] as? Bool == true)
            var validator = JSONSchemaValidator.repository
            #expect(try validator.validate(report, against: "verify") == [])
            let association = Self.association(report)
            #expect(association["source"] as? String == "direct")
            let fetch = association["fetch"] as? [String: Any]
            #expect(fetch?["status"] as? Int == 200)
            #expect(fetch?["url"] as? String == "https://\(site)\(FetchCommandTests.wellKnown)")
            #expect(server.requests.count == 1)
        }
    }

    @Test("AD-4.3: --ca-file does not vouch for a plain entry (developer-mode semantics): not trusted, exit 10")
    func verifyPlainEntryNeedsSystemTrust() async throws {
        try await FetchCommandTests.withSite(routes: [FetchCommandTests.wellKnown: .json(Self.listing)]) {
            server, site, reach, ca in
            let directory = try CLI.temporaryDirectory("swcred-verify-live")
            defer { try? FileManager.default.removeItem(at: directory) }
            let app = try Self.entitlements(["webcredentials:\(site)"], in: directory)
            let result = try await FetchCommandTests.run(
                ["verify", "--entitlements", app, "--direct", "--developer-mode", "--ca-file", ca] + reach + [
                    "--format", "json",
                ]
            )
            #expect(result.status == 10)
            let association = Self.association(try result.json())
            #expect(association["trusted"] as? Bool == false)
            #expect((association["reason"] as? String ?? "").contains("-1202"))
            #expect(server.requests.isEmpty)
        }
    }

    @Test("AD-4.1: verify --cdn sends a mode entry to the site's .well-known, never to the CDN")
    func verifyCDNModeEntry() async throws {
        try await FetchCommandTests.withSite(routes: [FetchCommandTests.wellKnown: .json(Self.listing)]) {
            server, site, reach, ca in
            let directory = try CLI.temporaryDirectory("swcred-verify-live")
            defer { try? FileManager.default.removeItem(at: directory) }
            let app = try Self.entitlements(["webcredentials:\(site)?mode=developer"], in: directory)
            let result = try await FetchCommandTests.run(
                ["verify", "--entitlements", app, "--cdn", "--developer-mode", "--ca-file", ca] + reach + [
                    "--format", "json",
                ]
            )
            #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
            #expect(Self.association(try result.json())["source"] as? String == "cdn")
            #expect(server.requests.map(\.uri) == [FetchCommandTests.wellKnown])
        }
    }

    @Test("AD-4.4: verify --direct reports a redirecting site as not trusted with the redirect in the reason")
    func verifyRedirect() async throws {
        let target = "https://www.aasa.test/.well-known/apple-app-site-association"
        try await FetchCommandTests.withSite(routes: [FetchCommandTests.wellKnown: .redirect(301, to: target)]) {
            _, site, reach, ca in
            let directory = try CLI.temporaryDirectory("swcred-verify-live")
            defer { try? FileManager.default.removeItem(at: directory) }
            let app = try Self.entitlements(["webcredentials:\(site)?mode=developer"], in: directory)
            let result = try await FetchCommandTests.run(
                ["verify", "--entitlements", app, "--direct", "--developer-mode", "--ca-file", ca] + reach + [
                    "--format", "json",
                ]
            )
            #expect(result.status == 10)
            let association = Self.association(try result.json())
            #expect((association["fetch"] as? [String: Any])?["redirected"] as? Bool == true)
            #expect((association["reason"] as? String ?? "").contains(target))
        }
    }

    @Test("AD-5.3/AD-5.6: associations installs, refreshes live, and keeps site approval after a later failure")
    func associationsLive() async throws {
        try await FetchCommandTests.withSite(routes: [FetchCommandTests.wellKnown: .json(Self.listing)]) {
            server, site, reach, ca in
            let home = try CLI.temporaryDirectory("swcred-associations-live")
            defer { try? FileManager.default.removeItem(at: home) }
            let app = try Self.entitlements(["webcredentials:\(site)?mode=developer"], in: home)
            let live = ["--direct", "--developer-mode", "--ca-file", ca] + reach

            let installed = try await Self.run(
                ["associations", "--entitlements", app] + live + ["--format", "json"], home: home)
            #expect(installed.status == 0, "\(installed.stderr)")
            let first = try installed.json()
            #expect(first["installed"] as? Int == 1)
            #expect(first["checked"] as? Int == 1)
            let record = (first["records"] as? [[String: Any]])?.first
            #expect(record?["siteApproval"] as? String == "approved")
            #expect(record?["userApproval"] as? String == "unspecified")
            #expect(record?["retries"] as? Int == 0)
            #expect(record?["domain"] as? String == "\(site)?mode=developer")

            // Not due yet: a refresh without --force fetches nothing.
            let early = try await Self.run(["associations"] + live + ["--format", "json"], home: home)
            #expect(try early.json()["checked"] as? Int == 0)
            #expect(server.requests.count == 1)

            // The site breaks; a forced refresh records the error and keeps the approval.
            server.setRoute(FetchCommandTests.wellKnown, .status(500))
            let failed = try await Self.run(["associations", "--force"] + live + ["--format", "json"], home: home)
            #expect(failed.status == 0)
            let after = (try failed.json()["records"] as? [[String: Any]])?.first
            #expect(after?["siteApproval"] as? String == "approved")
            #expect(after?["retries"] as? Int == 1)
            let error = after?["error"] as? [String: Any]
            #expect(error?["domain"] as? String == "HTTP")
            #expect(error?["code"] as? Int == 500)

            let text = try await Self.run(["associations"], home: home)
            for label in [
                "User Approval:", "Site/Fmwk Approval:", "Last Checked:", "Next Check:", "Error:", "Retries:",
            ] {
                #expect(text.stdout.contains(label))
            }
        }
    }

    @Test("AD-5.2: associations installs from --aasa-dir, reinstalls from scratch, and resets one app's records")
    func associationsOfflineLifecycle() async throws {
        let home = try CLI.temporaryDirectory("swcred-associations-offline")
        defer { try? FileManager.default.removeItem(at: home) }
        let app = CLI.fixtures.appendingPathComponent("apps/TacoShop.entitlements").path
        let sites = CLI.fixtures.appendingPathComponent("sites").path

        let empty = try await Self.run(["associations", "--format", "json"], home: home)
        #expect(empty.status == 0)
        #expect((try empty.json()["records"] as? [Any])?.isEmpty == true)

        let installed = try await Self.run(
            ["associations", "--entitlements", app, "--aasa-dir", sites, "--format", "json"], home: home
        )
        #expect(installed.status == 0, "\(installed.stderr)")
        let records = try installed.json()["records"] as? [[String: Any]] ?? []
        #expect(!records.isEmpty)
        #expect(records.contains { $0["siteApproval"] as? String == "approved" })
        #expect(records.allSatisfy { $0["lastChecked"] is String })

        let reinstalled = try await Self.run(
            ["associations", "--entitlements", app, "--reinstall", "--format", "json"], home: home
        )
        let fresh = try reinstalled.json()["records"] as? [[String: Any]] ?? []
        #expect(fresh.count == records.count)
        #expect(fresh.allSatisfy { $0["siteApproval"] as? String == "unspecified" && $0["lastChecked"] is NSNull })

        let appID = records.first?["appID"] as? String ?? ""
        let reset = try await Self.run(["associations", "--reset", "--app-id", appID, "--format", "json"], home: home)
        #expect(reset.status == 0)
        #expect(try reset.json()["removed"] as? Int == records.count)
        #expect((try reset.json()["records"] as? [Any])?.isEmpty == true)
    }

    /// Runs the CLI with HOME in `home`, off the cooperative pool.
    static func run(_ arguments: [String], home: URL) async throws -> CLI.Result {
        try await CLI.run(arguments, home: home)
    }
}
