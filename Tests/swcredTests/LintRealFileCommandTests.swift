import Foundation
import Testing

/// Issue 21 through the real binary: lint's exit codes (cli.md: 0 without errors, 65 with errors,
/// 64 for bad options), the `related` rule of SWC114, `--build-setting`, and the lint ids that
/// `entitlements`, `verify` and `match` now put on their diagnostics (additional fields only).
@Suite("swcred lint on real-file mistakes")
struct LintRealFileCommandTests {
    static func lintFixture(_ name: String) -> String {
        CLI.fixtures.appendingPathComponent("lint/\(name)").path
    }

    static func findings(_ result: CLI.Result) throws -> [[String: Any]] {
        try #require(try result.json()["findings"] as? [[String: Any]])
    }

    @Test("SWC114: warnings only exit 0; JSON names both rules (path and related) and validates")
    func unreachableRule() async throws {
        let result = try await CLI.run(["lint", Self.lintFixture("catch-all-before-exclude.json"), "--format", "json"])
        #expect(result.status == 0)
        let json = try result.json()
        try AssociationCommandTests.checkSchema(json, "lint")
        #expect(json["valid"] as? Bool == true)
        let finding = try #require(try Self.findings(result).first { $0["id"] as? String == "SWC114" })
        #expect(finding["severity"] as? String == "warning")
        #expect(finding["path"] as? String == "applinks.details[0].components[1]")
        #expect(finding["related"] as? String == "applinks.details[0].components[0]")
        // Findings without a related rule keep exactly the five fields of cli.md.
        let text = try await CLI.run(["lint", Self.lintFixture("catch-all-before-exclude.json")])
        #expect(
            text.stdout.contains(
                "SWC114 warning applinks.details[0].components[1]: rule components[1] is never reached"))
        #expect(text.stdout.contains("(swcred explain SWC114)"))
    }

    @Test("SWC014 blamed on the bundle ID is an error: exit 65; placeholders (SWC119) are warnings or notes: exit 0")
    func exitCodes() async throws {
        let underscore = try await CLI.run(["lint", Self.lintFixture("underscore-bundle-id.json"), "--format", "json"])
        #expect(underscore.status == 65)
        #expect(
            try Self.findings(underscore).first?["message"] as? String ?? ""
                == "'Q7RT2ZK9LM.com.example.my_shop' is not an app ID: the bundle ID 'com.example.my_shop' contains '_'; bundle IDs hold only letters, digits, '-' and '.'"
        )
        let placeholders = try await CLI.run(["lint", Self.lintFixture("placeholder-prefixes.json"), "--format", "json"])
        #expect(placeholders.status == 0)
        // XXXXXXXXXX and YOURTEAMID are warnings; ABCDE12345, Apple's documentation example, a note.
        #expect(try placeholders.json()["warnings"] as? Int == 2)
        let utf16 = try await CLI.run(["lint", Self.lintFixture("utf16le-bom.json")])
        #expect(utf16.status == 0)
        #expect(utf16.stdout.contains("SWC118 warning"))
        #expect(try await CLI.run(["lint", Self.lintFixture("utf16le-lone-surrogate.json")]).status == 65)
    }

    @Test("lint --entitlements: SWC108 is a note for a source file; SWC117 until --build-setting expands it")
    func buildSettings() async throws {
        let file = Self.lintFixture("source-clip.entitlements")
        let plain = try await CLI.run(["lint", "--entitlements", file, "--format", "json"])
        #expect(plain.status == 0)
        let ids = try Self.findings(plain).map { "\($0["id"] as? String ?? "") \($0["severity"] as? String ?? "")" }
        #expect(ids == ["SWC108 note", "SWC117 warning", "SWC117 warning"])
        let expanded = try await CLI.run([
            "lint", "--entitlements", file, "--build-setting", "APP_CLIP_DOMAIN=clip.example.com",
            "--build-setting", "WEB_DOMAIN=shop.example.com", "--format", "json",
        ])
        #expect(expanded.status == 0)
        #expect(try Self.findings(expanded).compactMap { $0["id"] as? String } == ["SWC108"])
        let wrong = try await CLI.run([
            "lint", "--entitlements", file, "--build-setting", "APP_CLIP_DOMAIN=clip.example.com/", "--format", "json",
        ])
        #expect(wrong.status == 65)
        #expect(try Self.findings(wrong).contains { $0["id"] as? String == "SWC101" })
        #expect(try await CLI.run(["lint", "--entitlements", file, "--build-setting", "no-equals"]).status == 64)
        #expect(try await CLI.run(["lint", Self.lintFixture("empty-apps.json"), "--build-setting", "A=b"]).status == 64)
    }

    @Test("entitlements and verify diagnostics carry the lint ids (SWC105, SWC102, SWC101) in JSON and text")
    func entitlementsAndVerifyIDs() async throws {
        let broken = AssociationCommandTests.app("Broken.entitlements")
        let json = try await CLI.run(["entitlements", broken, "--format", "json"])
        #expect(json.status == 0)
        let entries = try #require(try json.json()["entries"] as? [[String: Any]])
        func ids(_ raw: String) -> [String] {
            let entry = entries.first { $0["raw"] as? String == raw }
            return (entry?["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }
        #expect(ids("applinks:tacos.example:8443") == ["SWC105"])
        #expect(ids("webcredential:tacos.example") == ["SWC102"])
        #expect(ids("applinks:tacos.example/menu") == ["SWC101"])
        let port = try #require(entries.first { $0["raw"] as? String == "applinks:tacos.example:8443" })
        let diagnostic = try #require((port["diagnostics"] as? [[String: Any]])?.first)
        #expect(diagnostic["severity"] as? String == "warning")
        #expect(diagnostic["message"] as? String == "an applinks entry with a port never opens a URL (TN3155)")
        let text = try await CLI.run(["entitlements", broken])
        #expect(text.stdout.contains("SWC105 warning: an applinks entry with a port never opens a URL"))

        let verify = try await CLI.run([
            "verify", "--entitlements", broken, "--aasa-dir", AssociationCommandTests.sites.path, "--format", "json",
        ])
        #expect(verify.status == 10)
        let associations = try #require(try verify.json()["associations"] as? [[String: Any]])
        let verdict = try #require(associations.first { $0["entry"] as? String == "applinks:tacos.example:8443" })
        #expect((verdict["diagnostics"] as? [[String: Any]] ?? []).contains { $0["id"] as? String == "SWC105" })
    }

    @Test("match warns about duplicate keys with their lint id (SWC005) and the same verdict as before")
    func matchDuplicateKeys() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("aasa.json")
        try Data(
            #"{"applinks":{"details":[{"appIDs":["Q7RT2ZK9LM.com.example.shop"],"components":[{"/":"/a"}],"components":[{"/":"/buy/*"}]}]}}"#
                .utf8
        ).write(to: file)
        let result = try await CLI.run(["match", "https://shop.example/buy/1", "--aasa", file.path])
        #expect(result.status == 0)
        #expect(result.stderr.contains("SWC005: key 'components' appears more than once"))
        let json = try await CLI.run(["match", "https://shop.example/a", "--aasa", file.path, "--format", "json"])
        #expect(json.status == 1)
        let diagnostics = try #require(try json.json()["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.first?["id"] as? String == "SWC005")
        #expect(diagnostics.first?["rule"] as? String == "AD-3.9")
    }

    @Test("the README's broken shop file: exit 65 with the issue-21 findings")
    func readmeFile() async throws {
        let result = try await CLI.run(["lint", Self.lintFixture("shop-broken.json"), "--format", "json"])
        #expect(result.status == 65)
        let ids = Set(try Self.findings(result).compactMap { $0["id"] as? String })
        for id in ["SWC014", "SWC045", "SWC111", "SWC112", "SWC113", "SWC114", "SWC119"] {
            #expect(ids.contains(id), "\(id) missing: \(ids.sorted())")
        }
        // The README prints these findings (notes and help lines left out): they must be the real ones.
        let readme = try String(contentsOf: CLI.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let marker = "Its findings, notes left out (help lines shortened):\n\n```text\n"
        let shown = try #require(
            readme.components(separatedBy: marker).dropFirst().first?.components(separatedBy: "```").first)
        let text = try await CLI.run(
            ["lint", "Fixtures/lint/shop-broken.json"], currentDirectory: CLI.repositoryRoot)
        let real = text.stdout.split(separator: "\n").filter { !$0.contains(" note ") && !$0.hasPrefix("    help") }
        #expect(shown.split(separator: "\n").filter { !$0.hasPrefix("    help") } == real)
    }
}
