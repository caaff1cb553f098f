import Foundation
import SWCredAssociation
import SWCredCore
import Testing

/// The rule book is the one table behind `swcred explain`, the lint ids, the rule ids in
/// reports and messages, the error codes and the DocC article; these tests fail when an id that
/// swcred can print has no entry, or when the article is out of step.
@Suite("Rule book")
struct RuleBookTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The Swift and DocC files under `folder`, with their text.
    static func files(under folder: String, extensions: Set<String>) -> [(String, String)] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        var found: [(String, String)] = []
        for case let file as URL in walker where extensions.contains(file.pathExtension) {
            if let text = try? String(contentsOf: file, encoding: .utf8) {
                found.append((file.path.replacingOccurrences(of: root.path + "/", with: ""), text))
            }
        }
        return found.sorted { $0.0 < $1.0 }
    }

    @Test("every entry has a unique id and every field filled in")
    func entriesAreComplete() {
        var seen: Set<String> = []
        for rule in RuleBook.all {
            #expect(seen.insert(rule.id.lowercased()).inserted, "\(rule.id) appears twice")
            for (name, field) in [
                ("title", rule.title), ("apple", rule.apple), ("why", rule.why), ("fix", rule.fix),
                ("example", rule.example),
            ] {
                #expect(!field.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(rule.id) has no \(name)")
            }
            #expect(RuleBook.rule(rule.id) == rule)
            #expect(RuleBook.rule(rule.id.lowercased()) == rule)
        }
        #expect(RuleBook.rule("SWC999") == nil)
    }

    @Test(
        "AD-2.1…AD-8.5, DAL-F3…DAL-Q4, ROR-F1…ROR-Q1: every RuleID has a rule entry and a spec rule, and back"
    )
    func ruleIDsResolve() throws {
        let spec = try String(
            contentsOf: Self.root.appendingPathComponent("Documentation/spec/associated-domains.md"), encoding: .utf8)
        let specLines = spec.split(separator: "\n")
        // asset-links.md lists its rules as "- DAL-S3 E: …", "- DAL-Q1: …" and "- ROR-L1 E: …".
        let assetLinks = try String(
            contentsOf: Self.root.appendingPathComponent("Documentation/spec/asset-links.md"), encoding: .utf8)
        let assetLinksLines = assetLinks.split(separator: "\n")
        for rule in RuleID.allCases {
            #expect(RuleBook.rule(rule.rawValue)?.kind == .rule, "\(rule) has no rule-book entry")
            let defined =
                rule.rawValue.hasPrefix("DAL-") || rule.rawValue.hasPrefix("ROR-")
                ? assetLinksLines.contains {
                    $0.hasPrefix("- \(rule.rawValue) ") || $0.hasPrefix("- \(rule.rawValue):")
                }
                : specLines.contains { $0.hasPrefix(rule.rawValue + " ") }
            #expect(defined, "\(rule) is not a rule of the specification")
            #expect(rule.description == rule.rawValue)
        }
        let entries = RuleBook.all.filter { $0.kind == .rule }.map(\.id)
        #expect(entries == RuleID.allCases.map(\.rawValue))
    }

    @Test("AD-4.8: a diagnostic's rule is the id's text in JSON, and text that is no rule is refused when read")
    func ruleIDCoding() throws {
        let diagnostic = Diagnostic(.error, "timed out", rule: .ad4_8)
        let json = String(decoding: try JSONEncoder().encode(diagnostic), as: UTF8.self)
        #expect(json.contains(#""rule":"AD-4.8""#))
        #expect(try JSONDecoder().decode(Diagnostic.self, from: Data(json.utf8)) == diagnostic)
        let unknown = Data(#"{"severity":"error","message":"x","rule":"AD-99.1"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Diagnostic.self, from: unknown) }
    }

    @Test("every lint id of the AASA, entitlements, assetlinks.json and webauthn linters has a lint entry")
    func lintIDs() {
        let assetLinks = RuleID.lintedAssetLinksRules.compactMap(\.lintID)
        #expect(assetLinks.count == RuleID.lintedAssetLinksRules.count)
        #expect(RuleID.dalS3.lintID == "SWC203" && RuleID.dalF5.lintID == "SWC215" && RuleID.dalQ4.lintID == "SWC234")
        let relatedOrigins = RuleID.lintedRelatedOriginsRules.compactMap(\.lintID)
        #expect(relatedOrigins.count == RuleID.lintedRelatedOriginsRules.count)
        #expect(RuleID.rorS1.lintID == "SWC241" && RuleID.rorL1.lintID == "SWC251" && RuleID.rorF3.lintID == "SWC263")
        #expect(RuleBook.rule("SWC251")?.platformHeading == "What browsers do")
        let ids = LintRule.allCases.map(\.rawValue) + EntitlementsLinter.Rule.allCases.map(\.rawValue) + assetLinks
            + relatedOrigins
        for id in ids {
            #expect(RuleBook.rule(id)?.kind == .lint, "\(id) has no lint entry")
        }
    }

    @Test("the findings on the broken fixture site all have entries")
    func findingsOnFixture() throws {
        let file = Self.root.appendingPathComponent(
            "Fixtures/sites/broken.example/.well-known/apple-app-site-association")
        let findings = AssociationLinter().lint(Array(try Data(contentsOf: file)))
        #expect(!findings.isEmpty)
        for finding in findings {
            #expect(RuleBook.rule(finding.id) != nil, "\(finding.id) has no entry")
        }
    }

    @Test("every id cited in a string literal of the sources has an entry")
    func idsInSources() {
        var cited: [String: String] = [:]
        for (path, text) in Self.files(under: "Sources", extensions: ["swift"]) {
            for line in text.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                // Comments cite spec rules for readers of the code; only literals reach users.
                guard !trimmed.hasPrefix("//"), line.contains("\"") else { continue }
                // A trailing comment (`code  // note`) is for readers too.
                let code = line.range(of: "  //").map { line[..<$0.lowerBound] } ?? line[...]
                for id in RuleBook.citedIDs(in: String(code)) { cited[id] = path }
            }
        }
        #expect(cited["AD-4.8"] != nil, "the scan found no rule id at all")
        for (id, path) in cited.sorted(by: { $0.key < $1.key }) {
            #expect(RuleBook.rule(id) != nil, "\(id), printed by \(path), has no entry")
        }
    }

    @Test("every error code name (the closed set SWCredError.Code.Name) has an error entry")
    func errorCodes() {
        let names = SWCredError.Code.Name.allCases.map(\.rawValue)
        #expect(names.contains("itemNotFound"))
        for name in names {
            #expect(RuleBook.rule(name)?.kind == .error, "error code \(name) has no error entry")
        }
    }

    @Test("every id named in the DocC catalogs has an entry")
    func idsInDocC() {
        for (path, text) in Self.files(under: "Sources", extensions: ["md"]) {
            for id in RuleBook.citedIDs(in: text) where id.hasPrefix("SWC0") || id.hasPrefix("SWC1") || id.hasPrefix("AD-") {
                #expect(RuleBook.rule(id) != nil, "\(id), named in \(path), has no entry")
            }
        }
    }

    @Test("the DocC article is the rule book (SWCRED_UPDATE_DOCS=1 rewrites it)")
    func articleInStep() throws {
        let path = Self.root.appendingPathComponent("Sources/SWCredCore/Docs.docc/RuleBook.md")
        let expected = RuleBook.markdownArticle()
        if ProcessInfo.processInfo.environment["SWCRED_UPDATE_DOCS"] == "1" {
            try expected.write(to: path, atomically: true, encoding: .utf8)
        }
        let actual = try String(contentsOf: path, encoding: .utf8)
        #expect(actual == expected, "Sources/SWCredCore/Docs.docc/RuleBook.md is out of step with RuleBook.all")
    }

    @Test("cited ids are found at word boundaries only")
    func citedIDScanner() {
        #expect(RuleBook.citedIDs(in: "refused by AD-4.8: timed out (see SWC031, PW-5.6)") == ["AD-4.8", "SWC031", "PW-5.6"])
        #expect(RuleBook.citedIDs(in: "XAD-4.8 SWC0311 SWC-6.10.") == ["SWC-6.10"])
        #expect(RuleBook.citedIDs(in: "(DAL-S7) ROR-L1, XDAL-S3 DAL-3 DAL-s3") == ["DAL-S7", "ROR-L1"])
    }
}
