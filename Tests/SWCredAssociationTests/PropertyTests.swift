import Foundation
import SWCredAssociation
import SWCredCore
import Testing

/// A seeded SplitMix64 generator, so every run checks the same cases and failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Properties and robustness")
struct PropertyTests {
    /// A direct recursive glob matcher (exponential in the worst case, fine for short inputs):
    /// the reference the automaton must agree with.
    static func reference(_ pattern: [Character], _ text: [Character]) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        switch first {
        case "*":
            for split in 0...text.count where reference(Array(pattern.dropFirst()), Array(text[split...])) {
                return true
            }
            return false
        case "?":
            return !text.isEmpty && reference(Array(pattern.dropFirst()), Array(text.dropFirst()))
        default:
            return text.first == first && reference(Array(pattern.dropFirst()), Array(text.dropFirst()))
        }
    }

    @Test("AD-7.6: the linear-time automaton agrees with a reference glob matcher on 20000 seeded cases")
    func automatonMatchesReference() {
        var generator = SeededGenerator(state: 0x5EED)
        let patternAlphabet: [Character] = ["a", "b", "/", "*", "?"]
        let textAlphabet: [Character] = ["a", "b", "/"]
        var disagreements: [String] = []
        for _ in 0..<20_000 {
            let pattern = (0..<Int.random(in: 0...7, using: &generator)).map { _ in
                patternAlphabet.randomElement(using: &generator) ?? "a"
            }
            let text = (0..<Int.random(in: 0...9, using: &generator)).map { _ in
                textAlphabet.randomElement(using: &generator) ?? "a"
            }
            let expected = Self.reference(pattern, text)
            let actual = WildcardPattern(String(pattern)).matches(String(text))
            if expected != actual { disagreements.append("\(String(pattern)) vs \(String(text))") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    @Test("AD-7.13: a variable behaves like the alternation of its values")
    func variablesAreAlternations() {
        var generator = SeededGenerator(state: 42)
        let alphabet: [Character] = ["a", "b", "*", "?"]
        for _ in 0..<2_000 {
            let values = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                String(
                    (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                        alphabet.randomElement(using: &generator) ?? "a"
                    })
            }
            let text = String(
                (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                    (["a", "b"] as [Character]).randomElement(using: &generator) ?? "a"
                })
            let viaVariable = WildcardPattern("x$(v)y", variables: ["v": values]).matches("x" + text + "y")
            let viaValues = values.contains { Self.reference(Array("x" + $0 + "y"), Array("x" + text + "y")) }
            #expect(viaVariable == viaValues, "\(values) vs \(text)")
        }
    }

    @Test("Mutated association files never trap: parse, lint, compile and match all return")
    func mutatedFilesDoNotTrap() throws {
        let original = [UInt8](
            try Data(
                contentsOf: TestSupport.fixtures.appendingPathComponent(
                    "sites/tacos.example/.well-known/apple-app-site-association")))
        let interesting: [UInt8] = Array(#"{}[]",:*?$()/\0123456789tfn"#.utf8) + [0x00, 0xFF, 0xC3, 0xA9]
        var generator = SeededGenerator(state: 7)
        let urls = try [
            "https://tacos.example/taco/x?cheese=1", "https://tacos.example/coupon/2345",
            "https://tacos.example/en_US/menu/sides#x",
        ].map(LinkURL.init)
        var parsed = 0
        for _ in 0..<1_500 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = interesting.randomElement(using: &generator) ?? 0
                case 1: bytes.remove(at: index)
                default: bytes.insert(interesting.randomElement(using: &generator) ?? 0, at: index)
                }
            }
            _ = AssociationLinter().lint(bytes)
            guard let file = try? AssociationFile.parse(bytes) else { continue }
            parsed += 1
            let matcher = ReferenceApplinksMatcher(file: file)
            for url in urls { _ = matcher.match(url, appID: nil) }
        }
        // Enough mutants stay valid JSON for the matcher path to be exercised.
        #expect(parsed > 100)
    }

    @Test("Arbitrary URL strings never trap the URL splitter")
    func urlsDoNotTrap() {
        var generator = SeededGenerator(state: 99)
        let alphabet: [Character] = ["h", "t", "p", "s", ":", "/", "?", "#", "@", "[", "]", ".", "%", "é", "1", "a"]
        var accepted = 0
        for _ in 0..<5_000 {
            let text =
                "https://"
                + String(
                    (0..<Int.random(in: 0...20, using: &generator)).map { _ in
                        alphabet.randomElement(using: &generator) ?? "a"
                    })
            if let url = try? LinkURL(text) {
                accepted += 1
                #expect(!url.host.isEmpty)
                #expect(url.host.unicodeScalars.allSatisfy { $0.isASCII })
            }
        }
        #expect(accepted > 0)
    }

    @Test("Public value types are Sendable")
    func sendable() {
        func check<T: Sendable>(_: T.Type) {}
        check(AssociationFile.self)
        check(ReferenceApplinksMatcher.self)
        check(WildcardPattern.self)
        check(Entitlements.self)
        check(EntitlementEntry.self)
        check(AssociatedDomain.self)
        check(AppIdentity.self)
        check(TrustEvaluator.self)
        check(TrustReport.self)
        check(LinkResolver.self)
        check(LinkDecision.self)
        check(DirectoryAssociationSource.self)
        check(RetrievedAssociationFile.self)
        check(LintFinding.self)
        check(LinkURL.self)
    }
}
