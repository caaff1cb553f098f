// Release-mode benchmark of SWCredAssociation's compile and match paths. Run through
// `Tools/bench-match`, which builds this file against the library sources in a throw-away
// package (so the main package's products never include it).
import Foundation
import SWCredAssociation

func measure(_ label: String, iterations: Int, _ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<iterations { try body() }
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let perSecond = Double(iterations) / seconds
    print(
        String(
            format: "%-58@ %10d iterations  %9.3f ms total  %12.0f /s  %9.3f µs each",
            label as NSString, iterations, seconds * 1000, perSecond, seconds / Double(iterations) * 1e6))
    return seconds
}

let root = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "."
/// `bench ROOT callgrind N`: only the compiled-automaton workload, warm, then N more URLs (for
/// instruction counts: run with N and with 0 and divide the difference by N).
let callgrindCount = CommandLine.arguments.count > 3 && CommandLine.arguments[2] == "callgrind"
    ? Int(CommandLine.arguments[3]) : nil
let fixture = URL(fileURLWithPath: root).appendingPathComponent(
    "Fixtures/sites/tacos.example/.well-known/apple-app-site-association")
let bytes = [UInt8](try Data(contentsOf: fixture))
let appID = "ABCDE12345.com.example.tacoshop"

/// `bench ROOT write-workload DIR COUNT`: writes the generated file as DIR/sites/shop.example's
/// association file and COUNT URLs (the 100 000 repeated) to DIR/urls.txt, for Tools/bench-match-bulk.
if CommandLine.arguments.count > 4, CommandLine.arguments[2] == "write-workload", let count = Int(CommandLine.arguments[4]) {
    let directory = URL(fileURLWithPath: CommandLine.arguments[3])
    let workload = AutomatonWorkload()
    let wellKnown = directory.appendingPathComponent("sites/shop.example/.well-known")
    try FileManager.default.createDirectory(at: wellKnown, withIntermediateDirectories: true)
    try Data(workload.file).write(to: wellKnown.appendingPathComponent("apple-app-site-association"))
    var text = ""
    text.reserveCapacity(count * 60)
    for i in 0..<count { text += workload.urls[i % workload.urls.count] + "\n" }
    try Data(text.utf8).write(to: directory.appendingPathComponent("urls.txt"))
    exit(0)
}

/// `bench ROOT adversarial N`: only the adversarial pattern against the 65 536-character URL, N times
/// (for profiling the per-byte loop).
if CommandLine.arguments.count > 3, CommandLine.arguments[2] == "adversarial", let count = Int(CommandLine.arguments[3]) {
    let json = #"{"applinks":{"details":[{"appIDs":["\#(appID)"],"components":[{"/":"/\#(String(repeating: "*a", count: 30))b"}]}]}}"#
    let hostile = ApplinksAutomaton(file: try AssociationFile.parse(Array(json.utf8)))
    let prefix = "https://tacos.example/"
    let url = prefix + String(repeating: "a", count: 65_536 - prefix.utf8.count)
    var matches = 0
    for _ in 0..<count where try hostile.match(url, appID: appID).outcome == .match { matches += 1 }
    print("adversarial: \(count) × 65 536 characters, \(matches) matches")
    exit(0)
}

if let callgrindCount {
    let workload = AutomatonWorkload()
    let automaton = ApplinksAutomaton(file: try AssociationFile.parse(workload.file))
    var hits = 0
    for url in workload.urls {
        if try automaton.match(url, appID: nil).outcome == .match { hits += 1 }
    }
    for i in 0..<callgrindCount {
        if try automaton.match(workload.urls[i % workload.urls.count], appID: nil).outcome == .match { hits += 1 }
    }
    print("callgrind workload: \(workload.urls.count) warm + \(callgrindCount) measured URLs, \(hits) matches")
    exit(0)
}

// 1. Parse + compile the demo shop file (7 components, variables incl. $(lang)/$(region)).
var sink = 0
_ = try measure("parse + compile tacos.example (\(bytes.count) bytes)", iterations: 2_000) {
    let file = try AssociationFile.parse(bytes)
    sink &+= ReferenceApplinksMatcher(file: file).appIDs.count
}

// 2. Match throughput on the compiled matcher.
let matcher = ReferenceApplinksMatcher(file: try AssociationFile.parse(bytes))
let urls = try [
    "https://tacos.example/burrito/order/", "https://tacos.example/taco/tuesday?cheese=cheddar",
    "https://tacos.example/coupon/1234", "https://tacos.example/coupon/2345", "https://tacos.example/en_US/menu/sides",
    "https://tacos.example/account/settings", "https://tacos.example/promo/spring",
    "https://tacos.example/nothing/here",
].map(LinkURL.init)
_ = measure("match (8 URLs per iteration, shop file)", iterations: 20_000) {
    for url in urls where matcher.match(url, appID: appID).outcome == .match { sink &+= 1 }
}

// 3. A large file near the 128 KB cap: 1500 components.
var components: [String] = []
for i in 0..<1_500 { components.append(#"{"/":"/section\#(i)/*/item/????","?":{"ref":"?*"}}"#) }
let large = Array(
    #"{"applinks":{"details":[{"appIDs":["\#(appID)"],"components":[\#(components.joined(separator: ","))]}]}}"#.utf8)
_ = try measure("parse + compile \(large.count)-byte file (1500 components)", iterations: 50) {
    sink &+= ReferenceApplinksMatcher(file: try AssociationFile.parse(large)).appIDs.count
}
let largeMatcher = ReferenceApplinksMatcher(file: try AssociationFile.parse(large))
let lastURL = try LinkURL("https://tacos.example/section1499/a/b/item/1234?ref=x")
_ = measure("match the last of 1500 components", iterations: 500) {
    if largeMatcher.match(lastURL, appID: appID).outcome == .match { sink &+= 1 }
}

// 4. Adversarial wildcard: *a*a*a*a*a*b against a long run of 'a' (linear, no backtracking).
for length in [10_000, 100_000, 1_000_000] {
    let text = String(repeating: "a", count: length)
    let pattern = WildcardPattern("*a*a*a*a*a*b")
    var matched = true
    _ = measure("adversarial *a*a*a*a*a*b vs \(length) × 'a' (no match)", iterations: 1) {
        matched = pattern.matches(text)
    }
    precondition(!matched)
}
let adversarialURL = try LinkURL("https://tacos.example/" + String(repeating: "a", count: 65_000))
let adversarialFile = try AssociationFile.parse(
    Array(#"{"applinks":{"details":[{"appIDs":["\#(appID)"],"components":[{"/":"*a*a*a*a*a*b"}]}]}}"#.utf8))
_ = measure("adversarial rule via matcher, 65000-char path", iterations: 1) {
    if ReferenceApplinksMatcher(file: adversarialFile).match(adversarialURL, appID: appID).outcome == .match { sink &+= 1 }
}
// 5. The compiled automaton (issue 12): ~700 components in 5 details, 100 000 URLs from their text.
let workload = AutomatonWorkload()
print("generated file: \(workload.file.count) bytes, \(workload.components) components in 5 details")
var compileTimes: [Double] = []
for _ in 0..<5 {
    compileTimes.append(
        try measure("parse + ApplinksAutomaton(file:) on the generated file", iterations: 1) {
            sink &+= ApplinksAutomaton(file: try AssociationFile.parse(workload.file)).appIDs.count
        })
}
let automaton = ApplinksAutomaton(file: try AssociationFile.parse(workload.file))
let referenceMatcher = ReferenceApplinksMatcher(file: try AssociationFile.parse(workload.file))
var outcomes: [MatchOutcome: Int] = [:]
var disagreements = 0
for url in workload.urls.prefix(20_000) {
    let fast = try automaton.match(url, appID: nil)
    if fast != referenceMatcher.match(try LinkURL(url), appID: nil) { disagreements += 1 }
}
for url in workload.urls { outcomes[try automaton.match(url, appID: nil).outcome, default: 0] += 1 }
print("outcomes over \(workload.urls.count) URLs: \(outcomes.sorted { $0.key.rawValue < $1.key.rawValue }); disagreements with the reference on the first 20 000: \(disagreements)")
print("cache after the warm pass: \(automaton.statistics)")
var rates: [Double] = []
for pass in 1...5 {
    let seconds = try measure("automaton pass \(pass): 100 000 URLs from text, appID nil", iterations: 1) {
        for url in workload.urls {
            if try automaton.match(url, appID: nil).outcome == .match { sink &+= 1 }
        }
    }
    rates.append(Double(workload.urls.count) / seconds)
}
rates.sort()
print(String(format: "automaton: median %.0f URLs/s (min %.0f, max %.0f) over 5 passes", rates[2], rates[0], rates[4]))
compileTimes.sort()
print(String(format: "compile: median %.3f ms (min %.3f, max %.3f)", compileTimes[2] * 1000, compileTimes[0] * 1000, compileTimes[4] * 1000))
_ = try measure("reference ReferenceApplinksMatcher: 2 000 URLs from text, appID nil", iterations: 1) {
    for url in workload.urls.prefix(2_000) {
        if referenceMatcher.match(try LinkURL(url), appID: nil).outcome == .match { sink &+= 1 }
    }
}

// 6. Adversarial: "/" + "*a"×30 + "b" through the automaton, 4 096 and 65 536 characters.
let hostileJSON = #"{"applinks":{"details":[{"appIDs":["\#(appID)"],"components":[{"/":"/\#(String(repeating: "*a", count: 30))b"}]}]}}"#
let hostile = ApplinksAutomaton(file: try AssociationFile.parse(Array(hostileJSON.utf8)))
for length in [4_096, 65_536] {
    let prefix = "https://tacos.example/"
    let url = prefix + String(repeating: "a", count: length - prefix.utf8.count)
    _ = try hostile.match(url, appID: appID)  // builds the states once
    var times: [Double] = []
    for _ in 0..<5 {
        times.append(
            try measure("automaton: /(*a)×30b vs \(length)-character URL", iterations: 1) {
                if try hostile.match(url, appID: appID).outcome == .match { sink &+= 1 }
            })
    }
    times.sort()
    print(String(format: "adversarial %d: median %.4f ms (min %.4f, max %.4f)", length, times[2] * 1000, times[0] * 1000, times[4] * 1000))
}
print("(sink \(sink))")

/// A generated file of 700 components in 5 details (every feature: `*`, `?`, `?*`, variables,
/// query dictionaries, `#`, `exclude`, `caseSensitive: false`, `percentEncoded: false`) and
/// 100 000 URLs aimed at it (most match something, some are excluded, some match nothing).
struct AutomatonWorkload {
    var file: [UInt8] = []
    var urls: [String] = []
    var components = 0

    init() {
        var random = SplitMix(state: 12)
        var details: [String] = []
        var shapes: [(Int, Int)] = []
        for detail in 0..<5 {
            var list: [String] = []
            for i in 0..<140 {
                let n = detail * 140 + i
                shapes.append((detail, i))
                switch i % 7 {
                case 0: list.append(#"{"/":"/d\#(detail)/s\#(i)/*/item/????","?":{"ref":"?*"}}"#)
                case 1: list.append(##"{"/":"/d\##(detail)/s\##(i)/*","exclude":true,"#":"no*"}"##)
                case 2: list.append(#"{"/":"/$(lang)_$(region)/d\#(detail)/p\#(i)/?*","caseSensitive":false}"#)
                case 3: list.append(#"{"/":"/d\#(detail)/s\#(i)/$(digit)*","?":"x=*"}"#)
                case 4: list.append(#"{"/":"/d\#(detail)/c\#(n)/*","percentEncoded":false}"#)
                case 5: list.append(#"{"/":"/d\#(detail)/s\#(i)/*/$(product)","comment":"products"}"#)
                default: list.append(#"{"/":"/D\#(detail)/S\#(i)/?*/*","caseSensitive":false,"?":{"utm_source":"*","page":"$(digit)*"}}"#)
                }
            }
            components += list.count
            details.append(#"{"appIDs":["ABCDE12345.com.example.app\#(detail)"],"components":[\#(list.joined(separator: ","))]}"#)
        }
        let json = #"{"applinks":{"substitutionVariables":{"product":["shoes","shirts","hats*"]},"details":[\#(details.joined(separator: ","))]}}"#
        file = Array(json.utf8)
        let segments = ["a", "bb", "item", "x1", "en_US", "shoes", "Hats-2", "%C3%A9"]
        for _ in 0..<100_000 {
            let (detail, i) = shapes[Int(random.next() % UInt64(shapes.count))]
            let seg = segments[Int(random.next() % UInt64(segments.count))]
            let url: String
            switch i % 7 {
            case 0: url = "https://shop.example/d\(detail)/s\(i)/\(seg)/item/1234?ref=mail"
            case 1: url = "https://shop.example/d\(detail)/s\(i)/\(seg)/x#nope"
            case 2: url = "https://shop.example/EN_us/d\(detail)/p\(i)/\(seg)"
            case 3: url = "https://shop.example/d\(detail)/s\(i)/42\(seg)?x=1"
            case 4: url = "https://shop.example/d\(detail)/c\(detail * 140 + i)/caf%C3%A9/\(seg)"
            case 5: url = "https://shop.example/d\(detail)/s\(i)/\(seg)/shoes"
            default: url = "https://shop.example/d\(detail)/s\(i)/\(seg)/z?utm_source=news&page=3"
            }
            urls.append(random.next() % 10 == 0 ? url.replacingOccurrences(of: "/d", with: "/q") : url)
        }
    }
}

struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
