import Foundation
import Testing

/// `swcred verify --android-app`: Android rows per host and relation with both verifiers'
/// verdicts, the cross-platform table, and their exit statuses, on the bundled fixtures.
@Suite("swcred verify --android-app")
struct VerifyAndroidTests {
    static let sites = CLI.fixtures.appendingPathComponent("sites").path
    static let release = CLI.fixtures.appendingPathComponent("apps/TacoShopRelease.entitlements").path
    /// The key Play App Signing signs com.example.tacos with (the fixtures' "release" key).
    static let releaseKey =
        "83:37:0C:28:F5:A9:B2:45:95:84:61:03:9D:53:2A:A3:EB:24:FE:15:9C:19:E0:74:84:C4:C6:DE:A2:4E:D5:95"
    /// The upload key, which www.tacos.example lists instead.
    static let uploadKey =
        "86:BF:39:A6:81:7C:D7:AB:9F:D0:A1:3F:CD:38:18:B1:DF:DB:1B:76:84:AE:45:6A:11:AF:43:6A:57:C2:F8:B9"
    static var tacos: String { "com.example.tacos=\(releaseKey)" }

    static func verify(_ arguments: [String]) async throws -> (CLI.Result, [String: Any]) {
        let result = try await CLI.run(["verify"] + arguments + ["--aasa-dir", sites, "--format", "json"])
        let json = try result.json()
        var validator = JSONSchemaValidator.repository
        let problems = try validator.validate(json, against: "verify")
        #expect(problems.isEmpty, "verify schema: \(problems)")
        return (result, json)
    }

    static func androidRows(_ json: [String: Any]) -> [[String: Any]] {
        ((json["associations"] as? [[String: Any]]) ?? []).filter { $0["platform"] as? String == "android" }
    }

    @Test("DAL-Q1: an Android app listed for both relations is trusted by both verifiers on its host; exit 0")
    func trustedHost() async throws {
        let (result, json) = try await Self.verify(["--android-app", Self.tacos, "--host", "tacos.example"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(json["trusted"] as? Bool == true)
        #expect(json["appID"] is NSNull)
        #expect(json["androidApps"] as? [String] == ["com.example.tacos"])
        let rows = Self.androidRows(json)
        #expect(rows.map { $0["relation"] as? String } == ["handle_all_urls", "get_login_creds"])
        for row in rows {
            #expect(row["app"] as? String == "com.example.tacos")
            #expect(row["host"] as? String == "tacos.example")
            #expect(row["source"] as? String == "dir")
            #expect(row["trusted"] as? Bool == true)
            let verifiers = try #require(row["verifiers"] as? [String: [String: Any]])
            #expect(verifiers["google"]?["trusted"] as? Bool == true)
            #expect(verifiers["android"]?["trusted"] as? Bool == true)
            #expect((verifiers["android"]?["reason"] as? String)?.contains("element 0 grants") == true)
        }
        // Without an iOS app the table has no iOS side and no asymmetry.
        let table = try #require(json["crossPlatform"] as? [[String: Any]])
        #expect(table.count == 1)
        #expect(table[0]["ios"] is NSNull)
        #expect(table[0]["android"] as? [String: Bool] == ["passwords": true, "links": true, "passkeys": true])
        #expect((table[0]["asymmetries"] as? [Any])?.isEmpty == true)
    }

    @Test("DAL-Q1, DAL-S6: the upload key listed instead of Play App Signing's: not trusted, the reason names the file's fingerprint; exit 10")
    func playAppSigning() async throws {
        let (result, json) = try await Self.verify(["--android-app", Self.tacos, "--host", "www.tacos.example"])
        #expect(result.status == 10)
        #expect(json["trusted"] as? Bool == false)
        let rows = Self.androidRows(json)
        #expect(rows.count == 2)
        for row in rows {
            #expect(row["trusted"] as? Bool == false)
            let reason = try #require(row["reason"] as? String)
            #expect(reason.contains("listed with other fingerprints (\(Self.uploadKey))"), "\(reason)")
            #expect(reason.contains("Play App Signing"))
        }
    }

    @Test("DAL-S7, DAL-Q1: where Google's API and a device disagree, both verdicts are printed")
    func verifiersDiffer() async throws {
        let (result, json) = try await Self.verify(["--android-app", Self.tacos, "--host", "partner.example"])
        #expect(result.status == 10)
        let links = try #require(Self.androidRows(json).first { $0["relation"] as? String == "handle_all_urls" })
        let verifiers = try #require(links["verifiers"] as? [String: [String: Any]])
        #expect(verifiers["google"]?["trusted"] as? Bool == true)
        #expect(verifiers["android"]?["trusted"] as? Bool == false)
        #expect(links["trusted"] as? Bool == false)
        #expect((links["reason"] as? String)?.contains("DAL-S7") == true)

        let text = try await CLI.run(
            ["verify", "--android-app", Self.tacos, "--host", "partner.example", "--aasa-dir", Self.sites])
        #expect(text.status == 10)
        #expect(text.stdout.contains("✗ android com.example.tacos handle_all_urls on partner.example"))
        #expect(text.stdout.contains("google: trusted — "))
        #expect(text.stdout.contains("android: not trusted — the list fails as a whole"))
    }

    @Test("DAL-Q6: with --entitlements the Android hosts are the entitlements' hosts; the table names each asymmetry")
    func crossPlatformTable() async throws {
        let (result, json) = try await Self.verify(["--entitlements", Self.release, "--android-app", Self.tacos])
        #expect(result.status == 10)
        let rows = try #require(json["associations"] as? [[String: Any]])
        #expect(rows.filter { $0["platform"] as? String == "ios" }.count == 5)
        // tacos.example and www.tacos.example (the *. entry is checked at its root, once).
        #expect(Self.androidRows(json).map { $0["host"] as? String } == [
            "tacos.example", "tacos.example", "www.tacos.example", "www.tacos.example",
        ])
        let table = try #require(json["crossPlatform"] as? [[String: Any]])
        #expect(table.map { $0["host"] as? String } == ["tacos.example", "www.tacos.example"])
        #expect((table[0]["asymmetries"] as? [String]) == [])
        #expect(table[1]["ios"] as? [String: Bool] == ["passwords": true, "links": true, "passkeys": true])
        #expect(table[1]["android"] as? [String: Bool] == ["passwords": false, "links": false, "passkeys": false])
        #expect((table[1]["asymmetries"] as? [String])?.first
            == "iOS app ABCDE12345.com.example.tacoshop is trusted for passwords on www.tacos.example, "
            + "Android app com.example.tacos is not")

        let text = try await CLI.run(
            ["verify", "--entitlements", Self.release, "--android-app", Self.tacos, "--aasa-dir", Self.sites])
        #expect(text.status == 10)
        #expect(text.stdout.contains("Cross-platform:"))
        #expect(
            text.stdout.contains("  ! iOS app ABCDE12345.com.example.tacoshop is trusted for links on www.tacos.example"))
    }

    @Test("--service narrows the Android rows to its relation (webcredentials: get_login_creds) and drops the table")
    func service() async throws {
        let (result, json) = try await Self.verify([
            "--entitlements", Self.release, "--android-app", Self.tacos, "--service", "webcredentials",
        ])
        #expect(result.status == 10)
        #expect(Set(Self.androidRows(json).compactMap { $0["relation"] as? String }) == ["get_login_creds"])
        #expect(json["crossPlatform"] == nil)
        let (clips, clipsJSON) = try await Self.verify([
            "--entitlements", Self.release, "--android-app", Self.tacos, "--service", "appclips",
        ])
        #expect(Self.androidRows(clipsJSON).isEmpty)
        #expect(clips.status == 10)  // no appclips entry: nothing checked is not trusted
    }

    @Test("without --android-app, iOS rows carry platform ios and there is no table")
    func iosOnly() async throws {
        let (result, json) = try await Self.verify(["--entitlements", Self.release])
        #expect(result.status == 0)
        let rows = try #require(json["associations"] as? [[String: Any]])
        #expect(!rows.isEmpty && rows.allSatisfy { $0["platform"] as? String == "ios" })
        #expect(json["crossPlatform"] == nil)
    }

    @Test("--android-app and --host usage: a SHA-1 fingerprint, no host, --host alone, a repeated package are 64")
    func usage() async throws {
        let sha1 = "com.example.tacos=" + Array(repeating: "AB", count: 20).joined(separator: ":")
        for arguments in [
            ["--android-app", sha1, "--host", "tacos.example"],
            ["--android-app", Self.tacos],
            ["--entitlements", Self.release, "--host", "tacos.example"],
            ["--android-app", Self.tacos, "--android-app", Self.tacos, "--host", "tacos.example"],
            ["--android-app", Self.tacos, "--host", "https://tacos.example/"],
        ] {
            let result = try await CLI.run(["verify"] + arguments + ["--aasa-dir", Self.sites])
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
        }
    }
}
