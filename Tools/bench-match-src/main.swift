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
let fixture = URL(fileURLWithPath: root).appendingPathComponent(
    "Fixtures/sites/tacos.example/.well-known/apple-app-site-association")
let bytes = [UInt8](try Data(contentsOf: fixture))
let appID = "ABCDE12345.com.example.tacoshop"

// 1. Parse + compile the demo shop file (7 components, variables incl. $(lang)/$(region)).
var sink = 0
_ = try measure("parse + compile tacos.example (\(bytes.count) bytes)", iterations: 2_000) {
    let file = try AssociationFile.parse(bytes)
    sink &+= ApplinksMatcher(file: file).appIDs.count
}

// 2. Match throughput on the compiled matcher.
let matcher = ApplinksMatcher(file: try AssociationFile.parse(bytes))
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
    sink &+= ApplinksMatcher(file: try AssociationFile.parse(large)).appIDs.count
}
let largeMatcher = ApplinksMatcher(file: try AssociationFile.parse(large))
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
    if ApplinksMatcher(file: adversarialFile).match(adversarialURL, appID: appID).outcome == .match { sink &+= 1 }
}
print("(sink \(sink))")
