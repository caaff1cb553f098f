import Foundation
import SWCredAssociation
import SWCredCore
import Testing

/// Issue 21: what real files get wrong. The made-up files of `Fixtures/lint/` and the findings
/// each must (and must not) give are listed in `Fixtures/lint/expectations.json`.
@Suite("Lint on real-file mistakes (SWC111-SWC119)")
struct LintRealFileTests {
    struct Expected: Decodable, Sendable {
        var id: String
        var severity: String?
        var path: String
        var related: String?
        var contains: [String]?
        var excludes: [String]?
    }

    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var file: String
        var rules: String
        var valid: Bool
        var findings: [Expected]?
        var absent: [String]?
        var absentAt: [Expected]?
        var quiet: Bool?
        var testDescription: String { "\(file) (\(rules))" }
    }

    struct Manifest: Decodable { var cases: [Case] }

    static var folder: URL { TestSupport.fixtures.appendingPathComponent("lint") }

    static let cases: [Case] = {
        let url = folder.appendingPathComponent("expectations.json")
        guard let data = try? Data(contentsOf: url), let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
        else { return [] }
        return manifest.cases
    }()

    static func lint(_ name: String) throws -> [LintFinding] {
        AssociationLinter().lint([UInt8](try Data(contentsOf: folder.appendingPathComponent(name))))
    }

    @Test("the expectations manifest is read and covers every new AASA id")
    func manifest() {
        #expect(Self.cases.count >= 20)
        let named = Set(Self.cases.flatMap { ($0.findings ?? []).map(\.id) })
        for id in ["SWC111", "SWC112", "SWC113", "SWC114", "SWC115", "SWC116", "SWC118", "SWC119"] {
            #expect(named.contains(id), "no fixture expects \(id)")
        }
    }

    @Test("each Fixtures/lint file gives the findings it should, with id, severity, path and related rule", arguments: cases)
    func fixture(_ testCase: Case) throws {
        let findings = try Self.lint(testCase.file)
        let hasErrors = findings.contains { $0.severity == .error }
        #expect(hasErrors == !testCase.valid, "errors: \(findings.filter { $0.severity == .error })")
        for expected in testCase.findings ?? [] {
            let candidates = findings.filter { $0.id == expected.id && $0.path == expected.path }
            #expect(!candidates.isEmpty, "\(expected.id) at '\(expected.path)' missing; got \(findings)")
            guard let finding = candidates.first else { continue }
            if let severity = expected.severity { #expect(finding.severity.rawValue == severity, "\(finding)") }
            #expect(finding.related == expected.related, "\(finding)")
            for word in expected.contains ?? [] {
                #expect(finding.message.contains(word) || finding.help.contains(word), "'\(word)' not in \(finding)")
            }
            for word in expected.excludes ?? [] {
                #expect(!finding.message.contains(word), "'\(word)' in \(finding.message)")
            }
            #expect(!finding.help.isEmpty)
            #expect(RuleBook.rule(finding.id)?.kind == .lint, "\(finding.id) has no rule-book entry")
        }
        for id in testCase.absent ?? [] {
            #expect(!findings.contains { $0.id == id }, "\(id) should not be reported: \(findings)")
        }
        for absent in testCase.absentAt ?? [] {
            #expect(!findings.contains { $0.id == absent.id && $0.path == absent.path }, "\(absent.id) at \(absent.path)")
        }
        if testCase.quiet == true {
            #expect(findings.allSatisfy { $0.severity == .note }, "expected only notes: \(findings)")
        }
    }

    @Test("SWC114: defaults decide what a rule matches (a catch-all under a path default is not a catch-all)")
    func orderingUsesDefaults() {
        let shadowed = TestSupport.components(
            ##"[{"#":"*"},{"/":"/foo/bar","exclude":true}]"##, extra: #""defaults":{"/":"/foo/*"}"#)
        let notShadowed = TestSupport.components(
            ##"[{"#":"*"},{"/":"/other","exclude":true}]"##, extra: #""defaults":{"/":"/foo/*"}"#)
        let lint = { (text: String) in AssociationLinter().lint(Array(text.utf8)).filter { $0.id == "SWC114" } }
        #expect(lint(shadowed).map(\.path) == ["applinks.details[0].components[1]"])
        #expect(lint(notShadowed).isEmpty)
        // A case-sensitive prefix does not cover a case-insensitive later rule.
        let folded = TestSupport.components(#"[{"/":"/a/*"},{"/":"/a/b","caseSensitive":false,"exclude":true}]"#)
        #expect(lint(folded).isEmpty)
        // A query pattern on the earlier rule leaves URLs for the later one.
        let query = TestSupport.components(#"[{"/":"*","?":"x=1"},{"/":"/a","exclude":true}]"#)
        #expect(lint(query).isEmpty)
    }

    @Test("SWC114 is sound: the later rule really never decides a URL (checked with the matcher)")
    func orderingAgreesWithMatcher() throws {
        let json = try String(
            contentsOf: Self.folder.appendingPathComponent("prefix-before-exclude.json"), encoding: .utf8)
        let appID = "Q7RT2ZK9LM.com.example.shop"
        for url in ["https://shop.example/account/delete", "https://shop.example/account/orders/1"] {
            let result = try ReferenceApplinksMatcher(file: TestSupport.file(json)).match(LinkURL(url), appID: appID)
            #expect(result.outcome == .match)
            #expect(result.rule?.component == 0)
        }
    }

    @Test("AD-3.9 Decision: UTF-16 and UTF-32 files match exactly as their UTF-8 twin")
    func otherEncodingsMatchLikeUTF8() throws {
        let appID = "Q7RT2ZK9LM.com.example.shop"
        func read(_ name: String) throws -> AssociationFile {
            try AssociationFile.parse([UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name))))
        }
        let twin = try read("utf8-same-rules.json")
        #expect(twin.transcodedFrom == nil)
        for (name, encoding) in [
            ("utf16le-bom.json", AssociationFile.OtherUnicodeEncoding.utf16LittleEndian),
            ("utf16be.json", .utf16BigEndian), ("utf32le.json", .utf32LittleEndian),
        ] {
            let file = try read(name)
            #expect(file.transcodedFrom == encoding)
            #expect(file.root == twin.root)
            #expect(file.lists(appID: appID, for: .webcredentials))
            #expect(file.diagnostics.map(\.id) == ["SWC118"])
            #expect(file.diagnostics.first?.rule == .ad3_9)
            for url in ["https://shop.example/caf%C3%A9/menu", "https://shop.example/buy/1", "https://shop.example/x"] {
                let link = try LinkURL(url)
                #expect(
                    ReferenceApplinksMatcher(file: file).match(link, appID: appID).outcome
                        == ReferenceApplinksMatcher(file: twin).match(link, appID: appID).outcome, "\(name) \(url)")
            }
        }
        #expect(throws: SWCredError.self) { try read("utf16le-lone-surrogate.json") }
        // An odd length is not UTF-16; plain UTF-8 and a UTF-8 mark are unchanged.
        #expect(throws: SWCredError.self) { try AssociationFile.parse([0x7B, 0x00, 0x7D]) }
        #expect(try AssociationFile.parse(Array("{}".utf8)).transcodedFrom == nil)
    }

    @Test("SWC108/SWC117: a source .entitlements gets a note for application-identifier and build-setting warnings")
    func sourceEntitlements() throws {
        let entitlements = try Entitlements.load(path: Self.folder.appendingPathComponent("source-clip.entitlements").path)
        let findings = EntitlementsLinter().lint(entitlements)
        #expect(findings.first { $0.id == "SWC108" }?.severity == .note)
        let unexpanded = findings.filter { $0.id == "SWC117" }
        #expect(unexpanded.map(\.path) == [
            "com.apple.developer.associated-domains[1]", "com.apple.developer.associated-domains[2]",
        ])
        #expect(unexpanded.allSatisfy { $0.severity == .warning })
        #expect(unexpanded.first?.message.contains("$(APP_CLIP_DOMAIN)") == true)
        #expect(!findings.contains { $0.id == "SWC101" })
        #expect(!findings.contains { $0.severity == .error })

        let settings = BuildSettings(["APP_CLIP_DOMAIN": "clip.example.com", "WEB_DOMAIN": "shop.example.com"])
        let expanded = EntitlementsLinter().lint(entitlements, buildSettings: settings)
        #expect(expanded.map(\.id) == ["SWC108"])
        let wrong = EntitlementsLinter().lint(
            entitlements, buildSettings: BuildSettings(["APP_CLIP_DOMAIN": "*.clip.example.com"]))
        #expect(wrong.map(\.id) == ["SWC108", "SWC101", "SWC117"])
    }

    @Test("build settings: $(NAME) and ${NAME} expand, others stay; NAME=VALUE parsing")
    func buildSettings() {
        let settings = BuildSettings(["A": "x", "B_2": ""])
        #expect(settings.expand("$(A).${B_2}.$(C).$(A:lower)") == "x..$(C).$(A:lower)")
        #expect(settings.expand("$(A") == "$(A")
        #expect(BuildSettings.firstReference(in: "applinks:$(A)") == "$(A)")
        #expect(BuildSettings.firstReference(in: "applinks:a$.example") == nil)
        let assignment = BuildSettings.parseAssignment("APP_CLIP_DOMAIN=clip.example.com=x")
        #expect(assignment?.name == "APP_CLIP_DOMAIN")
        #expect(assignment?.value == "clip.example.com=x")
        #expect(BuildSettings.parseAssignment("A=")?.value == "")
        #expect(BuildSettings.parseAssignment("=x") == nil)
        #expect(BuildSettings.parseAssignment("1A=x") == nil)
        #expect(BuildSettings.parseAssignment("A B=x") == nil)
        let appID = Entitlements(applicationIdentifier: "$(AppIdentifierPrefix)com.example.app", associatedDomains: [])
        #expect(EntitlementsLinter().lint(appID).map(\.id) == ["SWC117", "SWC110"])
        #expect(
            EntitlementsLinter().lint(appID, buildSettings: BuildSettings(["AppIdentifierPrefix": "Q7RT2ZK9LM."]))
                .map(\.id) == ["SWC110"])
    }

    @Test("issue 21 item 7: entitlement and file diagnostics carry the lint id of the same condition")
    func diagnosticIDs() throws {
        let port = EntitlementEntry.parse("applinks:example.com:8443")
        #expect(port.diagnostics.map(\.id) == ["SWC105"])
        #expect(port.diagnostics.first?.description.hasPrefix("SWC105 warning: ") == true)
        #expect(EntitlementEntry.parse("applinks:example.com/").diagnostics.map(\.id) == ["SWC101"])
        #expect(EntitlementEntry.parse("webcredential:example.com").diagnostics.map(\.id) == ["SWC102"])
        #expect(EntitlementEntry.parse("applinks:dev.example.com?mode=developer").diagnostics.map(\.id) == ["SWC103"])
        let build = EntitlementEntry.parse("appclips:$(APP_CLIP_DOMAIN)")
        #expect(!build.valid)
        #expect(build.diagnostics.map(\.id) == ["SWC117"])
        let duplicate = TestSupport.components("[]").replacingOccurrences(of: #"{"applinks""#, with: #"{"x":1,"x":2,"applinks""#)
        let file = try TestSupport.file(duplicate)
        #expect(file.diagnostics.map(\.id) == ["SWC005"])
        #expect(file.diagnostics.first?.labelledMessage.hasPrefix("SWC005: ") == true)
        let many = Entitlements(
            applicationIdentifier: "Q7RT2ZK9LM.com.x", associatedDomains: (0..<31).map { "applinks:d\($0).example.com" })
        #expect(many.fileDiagnostics.map(\.id) == ["SWC104"])
        let resolved = EntitlementResolver.resolve(
            Entitlements(applicationIdentifier: "Q7RT2ZK9LM.com.x", associatedDomains: ["applinks:a.example", "applinks:A.example"]),
            device: DeviceSettings())
        #expect(resolved.last?.diagnostics.map(\.id) == ["SWC106"])
        // Without an id, JSON has no "id" field, as before.
        let plain = try JSONEncoder().encode(Diagnostic.note("read a file"))
        #expect(String(decoding: plain, as: UTF8.self).contains("\"id\"") == false)
    }

    @Test("SWC014 blames the part that is wrong; SWC119 placeholders; real prefixes stay quiet")
    func appIDParts() {
        func messages(_ appID: String) -> [String] {
            AssociationLinter().lint(Array(#"{"webcredentials":{"apps":["\#(appID)"]}}"#.utf8)).map {
                "\($0.id) \($0.message)"
            }
        }
        #expect(messages("Q7RT2ZK9LM.com.example.app").isEmpty)
        #expect(messages("Q7RT2ZK9L.com.example.app").first?.contains("9 characters, not 10") == true)
        #expect(messages("q7rt2zk9lm.com.example.app").first?.contains("upper-case") == true)
        #expect(messages("Q7RT2ZK9LM.com.example.my_app").first?.contains("bundle ID") == true)
        #expect(messages("com.example.app").first?.hasPrefix("SWC014") == true)
        #expect(messages("0000000000.com.example.app").first?.hasPrefix("SWC119") == true)
        #expect(messages("MYTEAMID00.com.example.app").first?.hasPrefix("SWC119") == true)
    }

    @Test("SWC112: apps or details at the top level, and a service inside a detail")
    func misplaced() {
        let top = AssociationLinter().lint(Array(#"{"details":[],"webcredentials":{"apps":["Q7RT2ZK9LM.com.x"]}}"#.utf8))
        #expect(top.first { $0.id == "SWC112" }?.path == "details")
        let inDetail = AssociationLinter().lint(
            Array(TestSupport.components(#"[{"/":"/a"}]"#, detailExtra: #""appclips":{"apps":[]}"#).utf8))
        #expect(inDetail.first { $0.id == "SWC112" }?.path == "applinks.details[0].appclips")
    }
}
