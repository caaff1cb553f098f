import SWCredAssociation
import SWCredCore
import Testing

/// The `/.well-known/webauthn` reader, the related-origins procedure and the linter
/// (asset-links.md §2.1, §2.4), on an inline Public Suffix List.
@Suite("Related origins")
struct RelatedOriginsTests {
    static let list: PublicSuffixList? = try? PublicSuffixList(
        parsing: Array("com\nde\nfr\nuk\nco.uk\nin\nnet\norg\nio\ngithub.io\n".utf8))

    static func document(_ json: String) -> Result<RelatedOriginsDocument, RelatedOriginsDocument.Failure> {
        RelatedOriginsDocument.parse(Array(json.utf8))
    }

    static func origins(_ entries: [String]) -> String {
        "{\"origins\":[" + entries.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
    }

    /// Chromium's verdict names for the caller https://foo.com.
    enum Outcome: Equatable { case parseError, noMatch, noMatchHitLimits, ok }

    static func outcome(_ json: String, caller: String = "https://foo.com") throws -> Outcome {
        guard case .success(let document) = document(json) else { return .parseError }
        let origin = try RelatedOrigin.parse(caller).get()
        switch RelatedOriginsMatcher(publicSuffixes: try #require(list)).match(caller: origin, in: document) {
        case .allowed: return .ok
        case .notListed(let hitLimit, _, _): return hitLimit ? .noMatchHitLimits : .noMatch
        }
    }

    @Test("ROR-S1, ROR-Q1: Chromium's well-known JSON vectors (caller https://foo.com)")
    func chromiumVectors() throws {
        for json in ["[]", "{}", "{\"foo\":\"bar\"}", "{\"origins\":\"bar\"}", "{\"origins\":[1]}"] {
            #expect(try Self.outcome(json) == .parseError, "\(json)")
        }
        for entries in [[], ["https://foo2.com"], ["https://com"], ["other://foo.com"]] {
            #expect(try Self.outcome(Self.origins(entries)) == .noMatch, "\(entries)")
        }
        let five = ["https://a.com", "https://b.com", "https://c.com", "https://d.com"]
        #expect(try Self.outcome(Self.origins(five + ["https://foo.com"])) == .ok)
        #expect(try Self.outcome(Self.origins(five + ["https://e.com", "https://foo.com"])) == .noMatchHitLimits)
        #expect(try Self.outcome(Self.origins(five + ["https://foo.com", "https://e.com"])) == .ok)
        let oneLabel = ["https://foo.co.uk", "https://foo.de", "https://foo.in", "https://foo.net", "https://foo.org"]
        #expect(try Self.outcome(Self.origins(oneLabel + ["https://foo.com"])) == .ok)
    }

    @Test("ROR-S2: entries are read as origins; others are skipped with the reason")
    func entryOrigins() throws {
        let good = try RelatedOrigin.parse("HTTPS://Shop.Example.DE:443/").get()
        #expect(good.description == "https://shop.example.de")
        #expect(!good.hasMoreThanOrigin)
        #expect(try RelatedOrigin.parse("https://example.de:8443/path?q#f").get().hasMoreThanOrigin)
        #expect(try RelatedOrigin.parse("https://bücher.de").get().host == "xn--bcher-kva.de")
        for bad in ["example.de", "https:example.de", "https://", "https://exa mple.de", "https://example.de:99999",
            "https://example.de.", "https://ex%41.de", "1https://x.de"]
        {
            #expect(throws: RelatedOrigin.Unusable.self, "\(bad)") { try RelatedOrigin.parse(bad).get() }
        }
        #expect(RelatedOrigin.parse("other://foo.com") == .failure(.opaque("other")))
    }

    @Test("ROR-L1: the sixth label is dead, the label set is printed")
    func lintDeadLabels() throws {
        let entries = ["https://a.com", "https://b.de", "https://www.b.com", "https://c.fr", "https://d.co.uk",
            "https://e.org", "https://f.net", "https://c.net"]
        let linter = RelatedOriginsLinter(publicSuffixes: try #require(Self.list))
        let findings = linter.lint(Array(Self.origins(entries).utf8))
        let dead = findings.filter { $0.rule == .rorL1 && $0.severity == .error }
        #expect(dead.map(\.path) == ["origins[6]"])
        #expect(dead.first?.id == "SWC251")
        let note = try #require(findings.first { $0.rule == .rorL1 && $0.severity == .note })
        #expect(note.message.contains("a, b, c, d, e"))
        #expect(note.message.contains("dead entries: origins[6]"))
    }

    @Test("ROR-S2, ROR-L3: non-https, paths, duplicates, public suffixes and the RP ID's own origins")
    func lintHygiene() throws {
        let entries = ["http://a.com", "https://b.com/login", "https://c.com", "https://c.com", "https://github.io",
            "https://192.0.2.1", "example.de", "https://login.example.com", "https://example.com"]
        let findings = RelatedOriginsLinter(publicSuffixes: try #require(Self.list))
            .lint(Array(Self.origins(entries).utf8), rpID: "example.com")
        func at(_ index: Int, _ rule: RuleID) -> [LintFinding] {
            findings.filter { $0.path == "origins[\(index)]" && $0.rule == rule }
        }
        #expect(at(0, .rorS2).first?.severity == .error)
        #expect(at(1, .rorS2).first?.severity == .warning)
        #expect(at(3, .rorS2).first?.message.contains("listed again") == true)
        #expect(at(4, .rorS2).first?.severity == .error)
        #expect(at(5, .rorS2).first?.severity == .error)
        #expect(at(6, .rorS2).first?.severity == .error)
        #expect(at(7, .rorL3).first?.severity == .note)
        #expect(at(8, .rorL3).first?.severity == .note)
        #expect(findings.allSatisfy { $0.id.hasPrefix("SWC2") })
    }

    @Test("ROR-S1, ROR-F3: shapes, empty lists, size limits and HTML pages")
    func lintShapes() throws {
        let linter = RelatedOriginsLinter(publicSuffixes: try #require(Self.list))
        #expect(linter.lint(Array("{\"origins\":[]}".utf8)).first?.rule == .rorS1)
        #expect(linter.lint(Array("<!doctype html>".utf8)).first?.message.contains("HTML") == true)
        #expect(linter.lint(Array("{\"origins\":[\"https://a.com\", 3]}".utf8)).first?.path == "origins[1]")
        let big = "{\"origins\":[\"https://a.com\"]}" + String(repeating: " ", count: 70_000)
        #expect(linter.lint(Array(big.utf8)).contains { $0.rule == .rorF3 && $0.severity == .warning })
        let huge = [UInt8](repeating: 0x20, count: (1 << 18) + 1)
        #expect(linter.lint(huge).first?.rule == .rorF3)
        #expect(RelatedOriginsDocument.looksLikeRelatedOrigins(Array(Self.origins(["https://a.com"]).utf8)))
        #expect(!RelatedOriginsDocument.looksLikeRelatedOrigins(Array("{\"applinks\":{}}".utf8)))
    }
}
