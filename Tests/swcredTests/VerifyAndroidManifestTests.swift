import Foundation
import Testing

/// `swcred verify --android-manifest FILE [--android-strings FILE]` on the bundled Taco Shop app.
@Suite("swcred verify --android-manifest")
struct VerifyAndroidManifestTests {
    static let folder = CLI.fixtures.appendingPathComponent("android/TacoShop")
    static let manifest = folder.appendingPathComponent("AndroidManifest.xml").path
    static let strings = folder.appendingPathComponent("strings.xml").path
    static let sites = CLI.fixtures.appendingPathComponent("sites").path
    static let app = "com.example.tacos=\(VerifyAndroidTests.releaseKey)"

    static func verify(_ arguments: [String]) async throws -> (CLI.Result, [String: Any]) {
        let result = try await CLI.run(
            ["verify", "--android-app", app, "--aasa-dir", sites, "--format", "json"] + arguments)
        let json = try result.json()
        var validator = JSONSchemaValidator.repository
        let problems = try validator.validate(json, against: "verify")
        #expect(problems.isEmpty, "verify schema: \(problems)")
        return (result, json)
    }

    @Test("DAL-Q2, DAL-Q5, DAL-F1, DAL-F5: the manifest's verified hosts are checked (a @string/ host from strings.xml; an offline redirect; an SPA's index.html); the Android 11 all-or-none finding; the includes")
    func manifestHosts() async throws {
        let (result, json) = try await Self.verify(["--android-manifest", Self.manifest, "--android-strings", Self.strings])
        #expect(result.status == 10, "\(result.stderr)")
        let rows = VerifyAndroidTests.androidRows(json)
        let hosts = ["tacos.example", "www.tacos.example", "order.tacos.example", "app.tacos.example"]
        #expect(rows.map { $0["host"] as? String } == hosts.flatMap { [$0, $0] })
        #expect(rows.map { $0["trusted"] as? Bool } == [true, true] + Array(repeating: false, count: 6))
        let report = try #require(json["androidManifest"] as? [String: Any])
        #expect(report["package"] as? String == "com.example.tacos")
        #expect(report["verifiedHosts"] as? [String] == hosts)
        #expect(report["includes"] as? [String] == ["https://tacos.example/.well-known/assetlinks.json"])
        let findings = try #require(report["findings"] as? [[String: Any]])
        #expect(findings.count == 1, "\(findings)")
        #expect(findings.first?["rule"] as? String == "DAL-Q2")
        #expect((findings.first?["message"] as? String)?.contains("Android 11 and lower") == true)
    }

    @Test("DAL-Q2, DAL-Q5: without strings.xml, the @string/ host and asset_statements are named as unchecked")
    func withoutStrings() async throws {
        let (result, json) = try await Self.verify(["--android-manifest", Self.manifest])
        #expect(result.status == 10, "\(result.stderr)")
        let report = try #require(json["androidManifest"] as? [String: Any])
        #expect(report["verifiedHosts"] as? [String] == ["tacos.example", "order.tacos.example", "app.tacos.example"])
        let rules = ((report["findings"] as? [[String: Any]]) ?? []).compactMap { $0["rule"] as? String }
        #expect(rules == ["DAL-Q2", "DAL-Q5", "DAL-Q2"])
        let reasons = VerifyAndroidTests.androidRows(json).compactMap { $0["reason"] as? String }
        #expect(reasons.contains { $0.contains("answered 301 to https://tacos.example/.well-known/assetlinks.json") })
        #expect(reasons.contains { $0.contains("DAL-F5") && $0.contains("index.html") })
        let text = try await CLI.run(
            ["verify", "--android-app", Self.app, "--aasa-dir", Self.sites, "--android-manifest", Self.manifest])
        #expect(text.stdout.contains("Android manifest (com.example.tacos): verified hosts tacos.example"))
        #expect(text.stdout.contains("(DAL-Q5)"))
    }

    @Test("cli verify --android-manifest: no --android-app for its package is 64; a missing file 66; a malformed one 65")
    func errors() async throws {
        let noApp = try await CLI.run(["verify", "--android-manifest", Self.manifest, "--aasa-dir", Self.sites])
        #expect(noApp.status == 64)
        let otherPackage = try await CLI.run(
            ["verify", "--android-app", "com.other.app=\(VerifyAndroidTests.releaseKey)", "--android-manifest",
             Self.manifest, "--aasa-dir", Self.sites])
        #expect(otherPackage.status == 64)
        #expect(otherPackage.stderr.contains("com.example.tacos"))
        let missing = try await CLI.run(
            ["verify", "--android-app", Self.app, "--android-manifest", "/nonexistent/AndroidManifest.xml",
             "--aasa-dir", Self.sites])
        #expect(missing.status == 66)
        let malformed = try await CLI.run(
            ["verify", "--android-app", Self.app, "--android-manifest", Self.strings, "--aasa-dir", Self.sites])
        #expect(malformed.status == 65, "\(malformed.stderr)")
        let stringsAlone = try await CLI.run(
            ["verify", "--android-app", Self.app, "--host", "tacos.example", "--android-strings", Self.strings,
             "--aasa-dir", Self.sites])
        #expect(stringsAlone.status == 64)
    }
}
