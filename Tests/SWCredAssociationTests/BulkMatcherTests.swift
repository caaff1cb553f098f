import Foundation
import SWCredAssociation
import SWCredCore
import Testing

/// The engine of bulk `match` (``BulkMatcher``): real URL lists on disk, real web-root folders.
@Suite("Bulk match engine")
struct BulkMatcherTests {
    typealias T = TestSupport

    /// A URL list file holding `lines`.
    static func list(_ lines: [String]) throws -> String {
        let root = try T.temporaryDirectory()
        try T.write(lines.joined(separator: "\n") + "\n", to: "urls.txt", in: root)
        return root.appendingPathComponent("urls.txt").path
    }

    /// Every entry of a run, and its summary.
    static func run(_ matcher: BulkMatcher) async throws -> ([BulkMatcher.Entry], BulkMatchSummary) {
        var entries: [BulkMatcher.Entry] = []
        while let entry = try await matcher.next() { entries.append(entry) }
        return (entries, matcher.finish())
    }

    static func results(_ entries: [BulkMatcher.Entry]) -> [BulkMatcher.Result] {
        entries.compactMap { if case .result(let result) = $0 { result } else { nil } }
    }

    /// A sink for the files' warnings.
    final class Warnings {
        var lines: [String] = []
    }

    static let domains = [
        "applinks:www.example.com", "applinks:*.example.com", "applinks:gone.example.org",
    ]

    static let urls = [
        "https://www.example.com/menu/1",  // exact entry's file: match
        "https://www.example.com/promo",  // falls back to the wildcard's root file: match
        "https://www.example.com/secret",  // exclude at the exact host: final
        "https://www.example.com:8443/menu/1",  // non-default port: nothing
        "https://other.example/promo",  // no entry covers the host
        "https://gone.example.org/a",  // the entry's file is missing
        "https://www.example.com/menu/2",  // the same files again: no new retrieval
        "https://gone.example.org/b",
    ]

    @Test("AD-8.2, AD-8.5, AD-7.1: the entitlement path decides as LinkResolver.decide does; each file retrieved once")
    func entitlementPathAgreesWithSingleForm() async throws {
        let root = try LookupTests.sites()
        let app = try AppIdentity(
            entitlements: Entitlements(applicationIdentifier: T.appID, associatedDomains: Self.domains))
        let evaluator = TrustEvaluator(source: DirectoryAssociationSource(root: root.path))
        let warnings = Warnings()
        let matcher = BulkMatcher(
            lines: try URLListReader(path: Self.list(Self.urls)), files: .entitlements(app, evaluator),
            expecting: .match
        ) { warnings.lines.append($0) }
        let (entries, summary) = try await Self.run(matcher)
        let results = Self.results(entries)
        #expect(results.map(\.line) == Array(1...Self.urls.count))
        #expect(results.map(\.url) == Self.urls)
        // The single form, one URL at a time, is the oracle.
        let resolver = LinkResolver(evaluator: evaluator)
        for result in results {
            let single = await resolver.decide(try LinkURL(result.url), app: app)
            #expect(result.result.outcome == single.outcome, "\(result.url)")
            #expect(result.result.rule == single.rule, "\(result.url)")
            #expect(result.entitlement == single.entitlement, "\(result.url)")
        }
        #expect(
            results.map(\.result.outcome) == [.match, .match, .exclude, .noMatch, .noMatch, .noMatch, .match, .noMatch])
        #expect(results[1].entitlement == "applinks:*.example.com")
        #expect(results[1].file?.aasaHost == "example.com")
        #expect(results[2].entitlement == "applinks:www.example.com")
        // The missing file: a problem on each URL that needed it, warned about once.
        #expect(results[5].problem?.code == .fetchRefused)
        #expect(results[7].problem?.code == .fetchRefused)
        #expect(results[0].problem == nil && results[3].problem == nil)
        #expect(warnings.lines.contains { $0.contains("gone.example.org") })
        #expect(matcher.retrievals == 3)
        #expect(summary.urls == 8 && summary.match == 3 && summary.exclude == 1 && summary.noMatch == 4)
        #expect(summary.unretrieved == 2 && summary.invalid == 0)
        #expect(summary.byApp[T.appID]?.match == 3 && summary.byApp[T.appID]?.exclude == 1)
        #expect(matcher.unexpected == 5)
        // example.com's `/secret` was never reached (www's exclude decided first).
        #expect(summary.unusedRules.map(\.host) == ["example.com"])
        #expect(summary.unusedRules.map(\.rule.component) == [1])
    }

    @Test("AD-7.1: the directory path decides each host by its own file; a host without one opens nothing")
    func directoryPath() async throws {
        let root = try LookupTests.sites()
        let warnings = Warnings()
        let lines = [
            "# a comment", "https://www.example.com/menu/1", "not a url", "", "https://example.com/promo7",
            "https://www.example.com:8443/menu/1", "https://nowhere.example/x", "https://www.example.com/secret",
        ]
        let matcher = BulkMatcher(
            lines: try URLListReader(path: Self.list(lines)),
            files: .directory(DirectoryAssociationSource(root: root.path), appID: T.appID)
        ) { warnings.lines.append($0) }
        let (entries, summary) = try await Self.run(matcher)
        guard entries.count == 6, case .invalid(let line, let error) = entries[1] else {
            Issue.record("expected an invalid line 3, got \(entries)")
            return
        }
        #expect(line == 3)
        #expect(error.code == .invalidURL)
        let results = Self.results(entries)
        #expect(results.map(\.line) == [2, 5, 6, 7, 8])
        #expect(results.map(\.result.outcome) == [.match, .match, .noMatch, .noMatch, .exclude])
        #expect(
            results.map { $0.file?.aasaHost }
                == ["www.example.com", "example.com", "www.example.com", "nowhere.example", "www.example.com"])
        #expect(results[0].ruleIndex == 0 && results[4].ruleIndex == 1)
        #expect(results.allSatisfy { $0.entitlement == nil && $0.problem == nil })
        #expect(warnings.lines.contains { $0.hasPrefix("nowhere.example: ") })
        #expect(summary.urls == 5 && summary.invalid == 1 && summary.match == 2 && summary.exclude == 1)
        #expect(matcher.unexpected == 0 && matcher.retrievals == 0)
        // Unused rules host by host, sorted: example.com's `/secret`; www's rules were all reached.
        #expect(summary.unusedRules.map(\.host) == ["example.com"])
    }

    @Test("AD-7.1: nextReady decides the lines whose host file is at hand without suspending, the rest through next, in input order")
    func readyLinesDoNotWait() async throws {
        let root = try LookupTests.sites()
        let lines = [
            "# a comment", "https://www.example.com/menu/1", "not a url", "", "https://example.com/promo7",
            "https://www.example.com:8443/menu/1", "https://nowhere.example/x", "https://www.example.com/secret",
        ]
        func matcher() throws -> BulkMatcher {
            BulkMatcher(
                lines: try URLListReader(path: Self.list(lines)),
                files: .directory(DirectoryAssociationSource(root: root.path), appID: T.appID)
            ) { _ in }
        }
        let (reference, referenceSummary) = try await Self.run(try matcher())
        let mixed = try matcher()
        var entries: [BulkMatcher.Entry] = []
        var ready = 0
        while true {
            if let entry = try mixed.nextReady() {
                ready += 1
                entries.append(entry)
            } else if let entry = try await mixed.next() {
                entries.append(entry)
            } else {
                break
            }
        }
        func shape(_ entries: [BulkMatcher.Entry]) -> [String] {
            entries.map {
                switch $0 {
                case .invalid(let line, let error): "\(line) invalid \(error.code)"
                case .result(let r): "\(r.line) \(r.result.outcome) \(r.file?.aasaHost ?? "-") \(r.ruleIndex ?? -1)"
                }
            }
        }
        #expect(shape(entries) == shape(reference))
        // Lines 3 (invalid), 6 and 8 (www.example.com, read for line 2) need no wait; lines 2, 5
        // and 7 each read a new host's file.
        #expect(ready == 3)
        let summary = mixed.finish()
        #expect(summary.urls == referenceSummary.urls && summary.invalid == referenceSummary.invalid)
        #expect(summary.unusedRules.map(\.host) == referenceSummary.unusedRules.map(\.host))
    }

    @Test("One file decides every URL (--aasa), as the compiled matcher decides it alone")
    func singleFile() async throws {
        let json = T.components(#"[{"/":"/a/*"},{"/":"/b","exclude":true},{"/":"/never"}]"#)
        let urls = ["https://one.example/a/1", "https://two.example/b", "https://three.example/c"]
        let matcher = BulkMatcher(
            lines: try URLListReader(path: Self.list(urls)), files: .file(try T.file(json), appID: T.appID),
            expecting: .noMatch
        ) { _ in }
        let (entries, summary) = try await Self.run(matcher)
        let results = Self.results(entries)
        let automaton = ApplinksAutomaton(file: try T.file(json))
        for result in results {
            #expect(result.result == automaton.match(try LinkURL(result.url), appID: T.appID))
        }
        #expect(results.map(\.result.outcome) == [.match, .exclude, .noMatch])
        #expect(results.allSatisfy { $0.file === results[0].file })
        #expect(matcher.unexpected == 2)
        #expect(summary.unusedRules.map(\.host) == [nil])
        #expect(summary.unusedRules.map(\.rule.component) == [2])
    }
}
