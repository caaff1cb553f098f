// The differential test of the compiled automaton against the reference matcher, at any count
// and in release mode. Run through `Tools/match-differential [PAIRS]`, which builds this file with
// Tests/SWCredAssociationTests/MatchCaseGenerator.swift against the library sources.
import Foundation
import SWCredAssociation

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

let pairs = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1_000_000 : 1_000_000
let seed = CommandLine.arguments.count > 2 ? UInt64(CommandLine.arguments[2]) ?? 0xA11_7E57 : 0xA11_7E57
var generator = MatchCaseGenerator(random: SeededGenerator(state: seed))
var checked = 0
var disagreements = 0
var outcomes: [String: Int] = [:]
var flushes = 0
let started = Date()
while checked < pairs {
    let json = generator.file()
    guard let file = try? AssociationFile.parse(Array(json.utf8)) else {
        print("generated file does not parse: \(json)")
        exit(1)
    }
    let reference = ReferenceApplinksMatcher(file: file)
    let limits =
        checked / 50 % 4 == 0
        ? ApplinksAutomaton.Limits(pathCacheBytes: 4096, patternCacheBytes: 2048) : ApplinksAutomaton.Limits()
    let automaton = ApplinksAutomaton(matcher: reference, limits: limits)
    for _ in 0..<50 {
        let text = generator.url()
        let appID = generator.pick([nil, nil] + MatchCaseGenerator.apps + ["ZZZZZ.unknown"])
        let expected = try? reference.match(LinkURL(text), appID: appID)
        let actual = try? automaton.match(text, appID: appID)
        outcomes[expected.map { $0.outcome.rawValue } ?? "invalid", default: 0] += 1
        if expected != actual {
            disagreements += 1
            if disagreements <= 5 {
                print("DISAGREE \(text) app \(appID ?? "nil")\n  expected \(String(describing: expected))\n  actual   \(String(describing: actual))\n  file \(json)")
            }
        }
        checked += 1
    }
    flushes += automaton.statistics.flushes
}
print("pairs \(checked), disagreements \(disagreements), outcomes \(outcomes.sorted { $0.key < $1.key }), cache flushes \(flushes), \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
exit(disagreements == 0 ? 0 : 1)
