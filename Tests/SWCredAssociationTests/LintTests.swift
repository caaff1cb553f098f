import Foundation
import SWCredAssociation
import Testing

@Suite("Lint")
struct LintTests {
    static func lint(_ text: String, host: String? = nil) -> [LintFinding] {
        AssociationLinter().lint(Array(text.utf8), host: host)
    }

    @Test("Rule ids are unique and stable SWC identifiers")
    func ids() {
        let ids = LintRule.allCases.map(\.rawValue)
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.hasPrefix("SWC") && $0.count == 6 })
    }

    @Test("Findings carry the JSON path of the offending value")
    func paths() {
        let findings = Self.lint(
            #"{"applinks":{"details":[{"appIDs":["Q7RT2ZK9LM.com.example.app"],"components":[{},{},{"?":{"a":true}}]}]}}"#
        )
        .filter { $0.severity != .note }
        #expect(findings.map(\.path) == [#"applinks.details[0].components[2]["?"].a"#])
        #expect(findings.first?.severity == .error)
        #expect(findings.first?.help.isEmpty == false)
    }

    @Test("AD-4.6/AD-4.9: size, JSON and top-level problems are single error findings")
    func parseProblems() {
        #expect(Self.lint("{").map(\.id) == ["SWC002"])
        #expect(Self.lint("[]").map(\.id) == ["SWC003"])
        #expect(Self.lint("").map(\.id) == ["SWC007"])
        let big = AssociationLinter().lint([UInt8](repeating: 0x20, count: 131_073))
        #expect(big.map(\.id) == ["SWC001"])
    }

    @Test("AD-3.9: BOM and duplicate keys are warnings; AD-3.8: signed files are warnings")
    func encodingWarnings() throws {
        let findings = AssociationLinter().lint(
            [0xEF, 0xBB, 0xBF] + Array(#"{"webcredentials":{"apps":["Q7RT2ZK9LM.com.x"],"apps":["Q7RT2ZK9LM.com.x"]}}"#.utf8))
        #expect(Set(findings.map(\.id)) == ["SWC004", "SWC005"])
        let signed = [UInt8](
            try Data(
                contentsOf: TestSupport.fixtures.appendingPathComponent(
                    "sites/signed.example/.well-known/apple-app-site-association")))
        #expect(AssociationLinter().lint(signed).map(\.id).contains("SWC006"))
    }

    @Test("--host must be ASCII (Punycode) and valid")
    func host() {
        let good = #"{"webcredentials":{"apps":["Q7RT2ZK9LM.com.example.app"]}}"#
        #expect(Self.lint(good, host: "example.com").isEmpty)
        #expect(Self.lint(good, host: "café.example").map(\.id) == ["SWC050"])
        #expect(Self.lint(good, host: "example").map(\.id) == ["SWC050"])
    }

    @Test("The fixtures: the good shop file is clean, the broken one has errors")
    func fixtures() throws {
        func read(_ host: String) throws -> [UInt8] {
            [UInt8](
                try Data(
                    contentsOf: TestSupport.fixtures.appendingPathComponent(
                        "sites/\(host)/.well-known/apple-app-site-association")))
        }
        let good = AssociationLinter().lint(try read("tacos.example"))
        #expect(!good.contains { $0.severity != .note })
        // The sample sites use ABCDE12345, the example prefix of Apple's documentation: a note (SWC119).
        #expect(good.contains { $0.id == "SWC119" && $0.severity == .note })
        let broken = AssociationLinter().lint(try read("broken.example"))
        #expect(broken.filter { $0.severity == .error }.count >= 4)
    }
}

@Suite("Lint availability hints")
struct LintAvailabilityTests {
    @Test(
        "AD-3.7: appIDs/components, caseSensitive/substitutionVariables, defaults/percentEncoded get availability notes"
    )
    func availability() {
        let text =
            #"{"applinks":{"defaults":{"caseSensitive":false},"substitutionVariables":{"v":["x"]},"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/$(v)","percentEncoded":false}]}]}}"#
        let notes = AssociationLinter().lint(Array(text.utf8)).filter { $0.id == "SWC060" }
        #expect(notes.allSatisfy { $0.severity == .note })
        #expect(
            Set(notes.map(\.path)) == [
                "applinks.defaults", "applinks.defaults.caseSensitive", "applinks.substitutionVariables",
                "applinks.details[0].appIDs", "applinks.details[0].components",
                "applinks.details[0].components[0].percentEncoded",
            ])
    }
}

@Suite("Entitlements lint")
struct EntitlementsLintTests {
    static func ids(_ domains: [String], appID: String? = "ABCDE12345.com.example.app") -> [String] {
        EntitlementsLinter().lint(Entitlements(applicationIdentifier: appID, associatedDomains: domains)).map(\.id)
    }

    @Test("Rule ids are unique SWC1xx identifiers, apart from the file rules")
    func ruleIDs() {
        let ids = EntitlementsLinter.Rule.allCases.map(\.rawValue)
        #expect(Set(ids).count == ids.count)
        #expect(Set(ids).isDisjoint(with: LintRule.allCases.map(\.rawValue)))
    }

    @Test("AD-2.3/AD-2.4/AD-2.5/AD-2.6/AD-2.7: invalid, unknown, port, duplicate, mode and count findings")
    func findings() {
        #expect(Self.ids(["applinks:example.com"]) == [])
        #expect(Self.ids(["applinks:example.com/"]) == ["SWC101"])
        #expect(Self.ids(["webcredential:example.com"]) == ["SWC102"])
        #expect(Self.ids(["applinks:example.com:8443"]) == ["SWC105"])
        #expect(Self.ids(["applinks:example.com", "applinks:EXAMPLE.com"]) == ["SWC106"])
        #expect(Self.ids(["applinks:dev.example.com?mode=developer"]) == ["SWC103"])
        #expect(Self.ids((0..<31).map { "applinks:d\($0).example.com" }) == ["SWC104"])
        #expect(Self.ids([], appID: nil) == ["SWC108", "SWC110"])
        #expect(Self.ids(["applinks:example.com"], appID: "com.example.app") == ["SWC109"])
        let paths = EntitlementsLinter().lint(
            Entitlements(
                applicationIdentifier: "ABCDE12345.com.x",
                associatedDomains: ["applinks:a.example", "bad"]))
        #expect(paths.map(\.path) == ["com.apple.developer.associated-domains[1]"])
    }

    @Test("AD-2.1: an entitlement that is not an array of strings is one error")
    func notStrings() throws {
        let entitlements = try Entitlements.parse(
            Array(
                #"{"application-identifier":"ABCDE12345.com.x","com.apple.developer.associated-domains":["applinks:a.example",1]}"#
                    .utf8))
        #expect(EntitlementsLinter().lint(entitlements).map(\.id) == ["SWC107"])
    }
}
