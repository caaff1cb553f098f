import Foundation
import Testing

/// `swcred entitlements`, `lint`, `match` and `verify`, run as the real binary against `Fixtures/`.
@Suite("swcred association commands")
struct AssociationCommandTests {
    static var apps: URL { CLI.fixtures.appendingPathComponent("apps") }
    static var sites: URL { CLI.fixtures.appendingPathComponent("sites") }
    static func app(_ name: String) -> String { apps.appendingPathComponent(name).path }
    static func site(_ host: String) -> String {
        sites.appendingPathComponent("\(host)/.well-known/apple-app-site-association").path
    }

    static func checkSchema(_ json: [String: Any], _ name: String) throws {
        var validator = JSONSchemaValidator.repository
        let problems = try validator.validate(json, against: name)
        #expect(problems.isEmpty, "\(name) schema: \(problems)")
        #expect(json["schema"] as? String == "swcred/1")
    }

    // MARK: entitlements

    @Test("entitlements: every entry in file order with the cli.md fields; exit 0")
    func entitlements() async throws {
        let result = try await CLI.run(["entitlements", Self.app("TacoShop.entitlements"), "--format", "json"])
        #expect(result.status == 0)
        let json = try result.json()
        try Self.checkSchema(json, "entitlements")
        #expect(json["appID"] as? String == "ABCDE12345.com.example.tacoshop")
        let entries = try #require(json["entries"] as? [[String: Any]])
        #expect(entries.count == 9)
        let wildcard = try #require(entries.first { $0["raw"] as? String == "applinks:*.tacos.example" })
        #expect(wildcard["wildcard"] as? Bool == true)
        #expect(wildcard["host"] as? String == "tacos.example")
        #expect(wildcard["aasaHost"] as? String == "tacos.example")
        #expect(wildcard["active"] as? Bool == true)
        let dev = try #require(entries.last)
        #expect(dev["modes"] as? [String] == ["developer"])
        #expect(dev["active"] as? Bool == false)
        // AD-2.6: with developer mode on, the development-signed app's developer entry applies.
        let on = try await CLI.run([
            "entitlements", Self.app("TacoShop.entitlements"), "--developer-mode", "--format", "json",
        ])
        let onEntries = try #require(try on.json()["entries"] as? [[String: Any]])
        #expect(onEntries.last?["active"] as? Bool == true)
    }

    @Test("AD-2.3: entitlements reports invalid entries as valid: false with diagnostics, still exit 0")
    func entitlementsInvalid() async throws {
        let result = try await CLI.run(["entitlements", Self.app("Broken.entitlements"), "--format", "json"])
        #expect(result.status == 0)
        let entries = try #require(try result.json()["entries"] as? [[String: Any]])
        let byRaw = Dictionary(entries.map { ($0["raw"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byRaw["tacos.example"]?["valid"] as? Bool == false)
        #expect(byRaw["tacos.example"]?["service"] is NSNull)
        #expect(byRaw["webcredential:tacos.example"]?["valid"] as? Bool == false)
        #expect(byRaw["applinks:tacos.example:8443"]?["valid"] as? Bool == true)
        #expect(byRaw["applinks:tacos.example:8443"]?["port"] as? Int == 8443)
        #expect(byRaw["appclips:*.tacos.example"]?["valid"] as? Bool == false)
    }

    @Test("entitlements reads binary plists and JSON objects; AD-2.1 non-string elements void the entitlement")
    func entitlementsFormats() async throws {
        let binary = try await CLI.run(["entitlements", Self.app("LegacyNews.entitlements"), "--format", "json"])
        #expect(binary.status == 0)
        #expect(try binary.json()["appID"] as? String == "KLMNO13579.com.example.news")
        let json = try await CLI.run(["entitlements", Self.app("Cafe.json"), "--format", "json"])
        #expect(try (json.json()["entries"] as? [Any])?.count == 2)
        let notStrings = try await CLI.run(["entitlements", Self.app("NotStrings.entitlements"), "--format", "json"])
        #expect(notStrings.status == 0)
        let doc = try notStrings.json()
        #expect((doc["entries"] as? [Any])?.isEmpty == true)
        #expect((doc["diagnostics"] as? [Any])?.isEmpty == false)
    }

    @Test("entitlements: a malformed file exits 65, a missing one 66, with a JSON error on stderr")
    func entitlementsErrors() async throws {
        let dir = try CLI.temporaryDirectory()
        let bad = dir.appendingPathComponent("bad.entitlements")
        try Data("<plist><dict><key>x".utf8).write(to: bad)
        let malformed = try await CLI.run(["entitlements", bad.path, "--format", "json"])
        #expect(malformed.status == 65)
        #expect(try malformed.errorJSON()["code"] as? String == "malformedEntitlements")
        #expect(malformed.stdout.isEmpty)
        let missing = try await CLI.run(["entitlements", dir.appendingPathComponent("none").path, "--format", "json"])
        #expect(missing.status == 66)
        #expect(try missing.errorJSON()["code"] as? String == "fileNotFound")
    }

    // MARK: lint

    @Test("lint: a good file exits 0; a broken one exits 65 with id, severity, path, message, help")
    func lint() async throws {
        let good = try await CLI.run(["lint", Self.site("tacos.example"), "--format", "json"])
        #expect(good.status == 0)
        try Self.checkSchema(try good.json(), "lint")
        let broken = try await CLI.run(["lint", Self.site("broken.example"), "--host", "broken.example", "--format", "json"])
        #expect(broken.status == 65)
        let json = try broken.json()
        try Self.checkSchema(json, "lint")
        let findings = try #require(json["findings"] as? [[String: Any]])
        let query = try #require(findings.first { $0["id"] as? String == "SWC033" })
        #expect(query["severity"] as? String == "error")
        #expect(query["path"] as? String == #"applinks.details[0].components[0]["?"].debug"#)
        #expect((query["help"] as? String)?.isEmpty == false)
        #expect(findings.contains { $0["id"] as? String == "SWC028" })
        #expect(findings.contains { $0["id"] as? String == "SWC037" })
        let text = try await CLI.run(["lint", Self.site("malformed.example")])
        #expect(text.status == 65)
        #expect(text.stdout.contains("SWC002"))
        #expect(try await CLI.run(["lint", "/nonexistent/aasa"]).status == 66)
    }

    @Test("lint --entitlements: entitlement findings (SWC1xx); errors exit 65, a clean file 0")
    func lintEntitlements() async throws {
        let broken = try await CLI.run(["lint", "--entitlements", Self.app("Broken.entitlements"), "--format", "json"])
        #expect(broken.status == 65)
        let json = try broken.json()
        try Self.checkSchema(json, "lint")
        let ids = (json["findings"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(ids.contains("SWC101"))
        #expect(ids.contains("SWC102"))
        #expect(ids.contains("SWC105"))
        let clean = try await CLI.run(["lint", "--entitlements", Self.app("TacoShopRelease.entitlements")])
        #expect(clean.status == 0)
    }

    // MARK: match

    @Test(
        "match --aasa: the WWDC19 URLs give match (0), exclude (1) and no_match (1) with the rule",
        arguments: [
            ("https://tacos.example/burrito/order/", "match", Int32(0)),
            ("https://tacos.example/coupon/1234", "exclude", 1),
            ("https://tacos.example/coupon/2345", "match", 0),
            ("https://tacos.example/TACO/tuesday?cheese=queso", "match", 0),
            ("https://tacos.example/taco/tuesday", "no_match", 1),
        ])
    func matchFile(url: String, outcome: String, status: Int32) async throws {
        let result = try await CLI.run([
            "match", url, "--aasa", Self.site("tacos.example"),
            "--app-id", "ABCDE12345.com.example.tacoshop", "--format", "json",
        ])
        #expect(result.status == status)
        let json = try result.json()
        try Self.checkSchema(json, "match")
        #expect(json["outcome"] as? String == outcome)
        #expect(json["host"] as? String == "tacos.example")
        if outcome == "no_match" {
            #expect(json["rule"] is NSNull)
        } else {
            let rule = try #require(json["rule"] as? [String: Any])
            #expect(rule["key"] as? String == "components")
            #expect(rule["detail"] as? Int == 0)
            #expect(rule["pattern"] is [String: Any])
        }
    }

    @Test("match --aasa-dir --entitlements: AD-8.5 falls back to the wildcard's root file for /promo")
    func matchEntitlements() async throws {
        let result = try await CLI.run([
            "match", "https://www.tacos.example/promo", "--aasa-dir", Self.sites.path,
            "--entitlements", Self.app("TacoShop.entitlements"), "--format", "json",
        ])
        #expect(result.status == 0)
        let json = try result.json()
        try Self.checkSchema(json, "match")
        #expect(json["entitlement"] as? String == "applinks:*.tacos.example")
        #expect(json["aasaHost"] as? String == "tacos.example")
        let exact = try await CLI.run([
            "match", "https://www.tacos.example/stores/9", "--aasa-dir", Self.sites.path,
            "--entitlements", Self.app("TacoShop.entitlements"), "--format", "json",
        ])
        #expect(exact.status == 1)
        #expect(try exact.json()["outcome"] as? String == "exclude")
        #expect(try exact.json()["entitlement"] as? String == "applinks:www.tacos.example")
        let uncovered = try await CLI.run([
            "match", "https://elsewhere.example/x", "--aasa-dir", Self.sites.path,
            "--entitlements", Self.app("TacoShop.entitlements"), "--format", "json",
        ])
        #expect(uncovered.status == 1)
        #expect(try uncovered.json()["outcome"] as? String == "no_match")
        #expect(try uncovered.json()["entitlement"] is NSNull)
    }

    @Test("match --aasa-dir without entitlements: the URL host's folder; a missing folder is no_match")
    func matchDirectory() async throws {
        let legacy = try await CLI.run([
            "match", "https://legacy.example/videos/wwdc/2010/1", "--aasa-dir", Self.sites.path,
            "--format", "json",
        ])
        #expect(legacy.status == 1)
        let json = try legacy.json()
        #expect(json["outcome"] as? String == "exclude")
        #expect(json["appID"] as? String == "ABCDE12345.com.example.tacoshop")
        #expect((json["rule"] as? [String: Any])?["key"] as? String == "paths")
        let idn = try await CLI.run(["match", "https://café.example/caf%C3%A9/menu", "--aasa-dir", Self.sites.path])
        #expect(idn.status == 0)
        let none = try await CLI.run(["match", "https://nothing.example/", "--aasa-dir", Self.sites.path, "--format", "json"])
        #expect(none.status == 1)
        #expect(try none.json()["outcome"] as? String == "no_match")
    }

    @Test("match: bad input exits 64, 65 or 66")
    func matchErrors() async throws {
        #expect(try await CLI.run(["match", "ftp://tacos.example/", "--aasa", Self.site("tacos.example")]).status == 64)
        #expect(try await CLI.run(["match", "https://tacos.example/"]).status == 64)
        #expect(
            try await CLI.run([
                "match", "https://tacos.example/", "--aasa", Self.site("tacos.example"),
                "--aasa-dir", Self.sites.path,
            ]).status == 64)
        #expect(try await CLI.run(["match", "https://tacos.example/", "--aasa", "/nonexistent"]).status == 66)
        let malformed = try await CLI.run([
            "match", "https://malformed.example/", "--aasa", Self.site("malformed.example"),
            "--format", "json",
        ])
        #expect(malformed.status == 65)
        #expect(try malformed.errorJSON()["code"] as? String == "malformedAASA")
    }

    // MARK: verify

    @Test("verify: the demo app is a mix of trusted and untrusted associations; exit 10")
    func verifyMixed() async throws {
        let result = try await CLI.run([
            "verify", "--entitlements", Self.app("TacoShop.entitlements"),
            "--aasa-dir", Self.sites.path, "--format", "json",
        ])
        #expect(result.status == 10)
        let json = try result.json()
        try Self.checkSchema(json, "verify")
        #expect(json["trusted"] as? Bool == false)
        let associations = try #require(json["associations"] as? [[String: Any]])
        #expect(associations.contains { $0["trusted"] as? Bool == true })
        let partner = try #require(associations.first { $0["entry"] as? String == "webcredentials:partner.example" })
        #expect(partner["trusted"] as? Bool == false)
        #expect(
            (partner["reason"] as? String)?.contains(
                "does not list ABCDE12345.com.example.tacoshop; it lists FGHIJ67890.com.example.partner") == true)
        #expect(partner["source"] as? String == "dir")
        #expect(partner["fetch"] is NSNull)
    }

    @Test("verify --progress always: one stderr line per retrieved site, stdout unchanged; auto is quiet in a pipe")
    func verifyProgress() async throws {
        let arguments = [
            "verify", "--entitlements", Self.app("TacoShop.entitlements"), "--aasa-dir", Self.sites.path,
            "--format", "json",
        ]
        let quiet = try await CLI.run(arguments)
        let loud = try await CLI.run(arguments + ["--progress", "always"])
        #expect(loud.status == quiet.status)
        #expect(loud.stdout == quiet.stdout)
        #expect(!quiet.stderr.contains("verify:"))
        let lines = loud.stderr.split(separator: "\n").filter { $0.hasPrefix("verify: ") }
        // One retrieval per distinct site (AD-4.8): tacos.example, www., *. (tacos.example again),
        // legacy, partner, accounts.missing; the inactive developer entry is not retrieved.
        #expect(lines.count == 5, "\(lines)")
        for (k, line) in lines.enumerated() {
            #expect(line.hasPrefix("verify: \(k + 1)/\(lines.count) "), "\(line)")
            #expect(line.hasSuffix(" retrieved") || line.hasSuffix(" not usable"), "\(line)")
        }
        #expect(lines.contains { $0.contains(" accounts.missing.example ") && $0.hasSuffix("not usable") })
        #expect(lines.contains { $0.contains(" tacos.example ") && $0.hasSuffix("retrieved") })
        let never = try await CLI.run(arguments + ["--progress", "never"])
        #expect(!never.stderr.contains("verify:"))
    }

    @Test("verify: the release app is fully trusted (exit 0); --service narrows the check")
    func verifyTrusted() async throws {
        let result = try await CLI.run([
            "verify", "--entitlements", Self.app("TacoShopRelease.entitlements"),
            "--aasa-dir", Self.sites.path, "--format", "json",
        ])
        #expect(result.status == 0)
        #expect(try result.json()["trusted"] as? Bool == true)
        let web = try await CLI.run([
            "verify", "--entitlements", Self.app("TacoShop.entitlements"), "--aasa-dir",
            Self.sites.path, "--service", "webcredentials", "--format", "json",
        ])
        let associations = try #require(try web.json()["associations"] as? [[String: Any]])
        #expect(associations.allSatisfy { $0["service"] as? String == "webcredentials" })
        #expect(associations.count == 3)
        let clip = try await CLI.run([
            "verify", "--entitlements", Self.app("TacoShopClip.entitlements"), "--aasa-dir",
            Self.sites.path,
        ])
        #expect(clip.status == 0)
        let idn = try await CLI.run(["verify", "--entitlements", Self.app("Cafe.json"), "--aasa-dir", Self.sites.path])
        #expect(idn.status == 0)
    }

    @Test("verify: AD-2.6 developer mode brings the developer entry in; AD-6.6 browser apps get no applinks")
    func verifyModesAndBrowsers() async throws {
        let on = try await CLI.run([
            "verify", "--entitlements", Self.app("TacoShop.entitlements"), "--aasa-dir",
            Self.sites.path, "--developer-mode", "--service", "applinks", "--format", "json",
        ])
        let dev = try #require((try on.json()["associations"] as? [[String: Any]])?.last)
        #expect(dev["entry"] as? String == "applinks:dev.tacos.example?mode=developer")
        #expect(dev["trusted"] as? Bool == true)
        let browser = try await CLI.run([
            "verify", "--entitlements", Self.app("Browser.entitlements"), "--aasa-dir",
            Self.sites.path, "--service", "applinks", "--format", "json",
        ])
        #expect(browser.status == 10)
        let reason = (try browser.json()["associations"] as? [[String: Any]])?.first?["reason"] as? String
        #expect(reason?.contains("web browsers cannot use applinks") == true)
    }

    @Test("verify: usage errors exit 64")
    func verifyUsage() async throws {
        #expect(try await CLI.run(["verify", "--aasa-dir", Self.sites.path]).status == 64)
        #expect(try await CLI.run(["verify", "--entitlements", Self.app("TacoShop.entitlements")]).status == 64)
        #expect(
            try await CLI.run(["verify", "--entitlements", Self.app("TacoShop.entitlements"), "--direct", "--cdn"]).status
                == 64)
        #expect(
            try await CLI.run([
                "verify", "--entitlements", Self.app("TacoShop.entitlements"), "--aasa-dir",
                Self.sites.path, "--service", "nope",
            ]).status == 64)
    }
}
