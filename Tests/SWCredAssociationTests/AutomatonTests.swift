import Foundation
import SWCredAssociation
import SWCredCore
import Testing

@Suite("Compiled automaton (section 7)")
struct AutomatonTests {
    /// Pairs in the default suite; `Tools/match-differential` runs more.
    static let pairs = Int(ProcessInfo.processInfo.environment["SWCRED_DIFFERENTIAL_PAIRS"] ?? "") ?? 200_000

    @Test(
        "AD-7.3/7.5-7.15: the compiled automaton and the reference matcher agree on outcome, app and rule over generated (file, URL) pairs"
    )
    func differential() throws {
        var generator = MatchCaseGenerator(random: SeededGenerator(state: 0xA11_7E57))
        let urlsPerFile = 50
        var checked = 0
        var disagreements: [String] = []
        var flushes = 0
        while checked < Self.pairs {
            let json = generator.file()
            guard let file = try? AssociationFile.parse(Array(json.utf8)) else {
                Issue.record("generated file does not parse: \(json)")
                return
            }
            let reference = ReferenceApplinksMatcher(file: file)
            // Every fourth file gets tiny caches, so flushing is exercised too.
            let limits =
                checked / urlsPerFile % 4 == 0
                ? ApplinksAutomaton.Limits(pathCacheBytes: 4096, patternCacheBytes: 2048) : ApplinksAutomaton.Limits()
            let automaton = ApplinksAutomaton(matcher: reference, limits: limits)
            for _ in 0..<urlsPerFile {
                let text = generator.url()
                let appID = generator.pick([nil, nil] + MatchCaseGenerator.apps + ["ZZZZZ.unknown"])
                let expected = try? reference.match(LinkURL(text), appID: appID)
                let actual = try? automaton.match(text, appID: appID)
                if expected != actual, disagreements.count < 5 {
                    disagreements.append(
                        "\(text) app \(appID ?? "nil"): expected \(String(describing: expected)) got \(String(describing: actual))\n  file \(json)"
                    )
                }
                checked += 1
            }
            flushes += automaton.statistics.flushes
        }
        #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
        #expect(flushes > 0, "the tiny caches were never flushed")
    }

    @Test("AD-7.3: the automaton decides every held match vector like the reference", arguments: Vectors.match)
    func vectors(vector: MatchVector) throws {
        let file = try AssociationFile.parse(vector.aasa)
        let expected = ReferenceApplinksMatcher(file: file).match(try LinkURL(vector.url), appID: vector.appID)
        let automaton = ApplinksAutomaton(file: file)
        #expect(try automaton.match(vector.url, appID: vector.appID) == expected)
        #expect(automaton.match(try LinkURL(vector.url), appID: vector.appID) == expected)
        #expect(expected.outcome.rawValue == vector.outcome)
    }

    @Test("AD-7.6: a file built to explode a DFA stays within its cache budget and answers right")
    func hostileFileStaysBounded() throws {
        // Overlapping stars followed by runs of '?': the subset construction has exponentially many states.
        let components = (0..<40).map { i in
            #"{"/": "/*a\#(String(repeating: "?", count: 8 + i % 6))*b\#(i % 7)", "?": {"k": "*a????????"}}"#
        }
        let json = TestSupport.components("[" + components.joined(separator: ",") + "]")
        let file = try TestSupport.file(json)
        let reference = ReferenceApplinksMatcher(file: file)
        let budget = 256 << 10
        let automaton = ApplinksAutomaton(
            matcher: reference, limits: .init(pathCacheBytes: budget, patternCacheBytes: 32 << 10))
        var generator = SeededGenerator(state: 7)
        var maximumBytes = 0
        for _ in 0..<400 {
            let path = (0..<Int.random(in: 20...200, using: &generator)).map { _ in
                ["a", "b", "c", "/", "1"].randomElement(using: &generator) ?? "a"
            }.joined()
            let url = "https://example.com/\(path)?k=\(String(repeating: "ab", count: 10))"
            #expect(try automaton.match(url, appID: nil) == reference.match(LinkURL(url), appID: nil))
            maximumBytes = max(maximumBytes, automaton.statistics.cacheBytes)
        }
        #expect(automaton.statistics.flushes > 0)
        #expect(maximumBytes <= budget + 32 << 10)
    }

    @Test("AD-7.6: the adversarial pattern '/' + '*a'×30 + 'b' decides a 65 536-character path")
    func adversarialPattern() throws {
        let json = TestSupport.components(#"[{"/": "/\#(String(repeating: "*a", count: 30))b"}]"#)
        let automaton = ApplinksAutomaton(file: try TestSupport.file(json))
        let prefix = "https://example.com/"
        let long = prefix + String(repeating: "a", count: LinkURL.maximumLength - prefix.utf8.count)
        #expect(try automaton.match(long, appID: TestSupport.appID).outcome == .noMatch)
        let matching = prefix + String(repeating: "a", count: 40) + "b"
        #expect(try automaton.match(matching, appID: TestSupport.appID).outcome == .match)
    }

    @Test("AD-7.6/7.8/7.10: long URLs (self-loop skipping, 8-byte scans) decide like the reference")
    func longURLsAgree() throws {
        // Loops on one byte (`*a`…), on all printable bytes but one or two (`/x/*`, `*b`), or on a
        // few (`$(digit)*`), case-folded and percent-decoded groups, and query/fragment checks, so
        // that the skipping paths start and stop at every offset within an 8-byte word.
        let components = [
            #"{"/": "/\#(String(repeating: "*a", count: 6))b"}"#,
            #"{"/": "/x/*", "?": {"q": "*z"}}"#,
            ##"{"/": "/y/*b", "#": "*f"}"##,
            #"{"/": "/$(digit)*"}"#,
            #"{"/": "/C/*Q", "caseSensitive": false}"#,
            #"{"/": "/p/*é*", "percentEncoded": false}"#,
            #"{"/": "/?*/*", "exclude": true, "?": "*!*"}"#,
        ]
        // All rules in one file, and each alone (one program per automaton: single-byte loops).
        let files = try (["[" + components.joined(separator: ",") + "]"] + components.map { "[" + $0 + "]" }).map {
            ReferenceApplinksMatcher(file: try TestSupport.file(TestSupport.components($0)))
        }
        let pairs = files.map { ($0, ApplinksAutomaton(matcher: $0)) }
        var generator = SeededGenerator(state: 0x5EED)
        let starts = ["/", "/x/", "/y/", "/1", "/c/", "/C/", "/p/", "/a"]
        let alphabet = ["a", "a", "a", "b", "c", "1", "/", "Q", "q", "%C3%A9", "%", "!", "."]
        for _ in 0..<400 {
            var path = starts.randomElement(using: &generator) ?? "/"
            let length = Int.random(in: 100...1_000, using: &generator)
            let runByte = alphabet.randomElement(using: &generator) ?? "a"
            while path.utf8.count < length {
                // Long runs of one piece (what a looping state skips), broken at random offsets.
                let piece = Bool.random(using: &generator) ? runByte : alphabet.randomElement(using: &generator) ?? "a"
                path += String(repeating: piece, count: Int.random(in: 1...40, using: &generator))
            }
            path += ["", "ab", "b", "Q", "/", "aab"].randomElement(using: &generator) ?? ""
            var url = "https://example.com" + path
            if Bool.random(using: &generator) {
                url += "?q=" + String(repeating: "y", count: Int.random(in: 0...300, using: &generator))
                url += ["z", "!", ""].randomElement(using: &generator) ?? ""
            }
            if Bool.random(using: &generator) {
                url += "#" + String(repeating: "e", count: Int.random(in: 0...200, using: &generator)) + "f"
            }
            let appID = Bool.random(using: &generator) ? nil : TestSupport.appID
            for (reference, automaton) in pairs {
                #expect(
                    try automaton.match(url, appID: appID) == reference.match(LinkURL(url), appID: appID), "\(url)")
            }
        }
        // A control byte or a space deep in a long path, query or fragment: LinkURL decides (and escapes it).
        for (offset, byte) in [(130, " "), (131, "\u{7F}"), (137, "\t")] {
            for suffix in ["", "?q=z", "#f"] {
                var text = String(repeating: "a", count: 200)
                text.insert(contentsOf: byte, at: text.index(text.startIndex, offsetBy: offset))
                let urls = ["https://example.com/" + text + suffix, "https://example.com/x/q?q=" + text + "z" + suffix]
                for url in urls {
                    for (reference, automaton) in pairs {
                        #expect(
                            try automaton.match(url, appID: nil) == reference.match(LinkURL(url), appID: nil),
                            "\(url)")
                    }
                }
            }
        }
    }

    @Test("AD-7.1: the byte splitter and LinkURL agree on host, port and errors")
    func viewAgreesWithLinkURL() {
        var generator = MatchCaseGenerator(random: SeededGenerator(state: 99))
        for _ in 0..<5_000 {
            let text = generator.url()
            let link = try? LinkURL(text)
            let view = try? LinkURLView(text)
            #expect(link?.host == view?.host, "\(text)")
            #expect(link?.hasNonDefaultPort == view?.hasNonDefaultPort, "\(text)")
        }
    }
}
