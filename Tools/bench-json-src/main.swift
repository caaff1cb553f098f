// The association-file parse (SWCredCore's JSONReader under AssociationFile.parse) on the inputs
// of the hot paths: a small real file (bulk `match` over many hosts parses one per host), a
// file near the 128 KB cap, a long webcredentials list, and lint of the large file. Uses only
// API that is the same before and after issue 20, so both builds run this file.
// Usage: bench ROOT [RUNS]; prints the median time per operation over RUNS runs (default 11).
import Foundation
import SWCredAssociation
import SWCredCore

let root = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "."
let runs = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 11 : 11

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// Median microseconds per call of `body` over `runs` runs of `iterations` calls.
func measure(_ name: String, bytes: Int, iterations: Int, _ body: () throws -> Int) rethrows {
    var times: [Double] = []
    var sink = 0
    for _ in 0..<runs {
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<iterations { sink &+= try body() }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        times.append(seconds / Double(iterations) * 1e6)
    }
    let us = median(times)
    let rate = Double(bytes) / us  // bytes per microsecond = MB/s
    let label = name.padding(toLength: 48, withPad: " ", startingAt: 0)
    print(label + String(format: " %10.2f us  %7.1f MB/s  (sink %d)", us, rate, sink & 0xF))
}

let appID = "ABCDE12345.com.example.app"
let tacos = [UInt8](
    try Data(contentsOf: URL(fileURLWithPath: root + "/Fixtures/sites/tacos.example/.well-known/apple-app-site-association")))

var components: [String] = []
for i in 0..<1_500 { components.append(#"{"/":"/section\#(i)/*/item/????","?":{"ref":"?*"},"comment":"x\u00e9"}"#) }
let large = Array(
    #"{"applinks":{"details":[{"appIDs":["\#(appID)"],"components":[\#(components.joined(separator: ","))]}]}}"#.utf8)

let apps = (0..<3_000).map { #""ABCDE\#(String(format: "%05d", $0)).com.example.app\#($0)""# }
let list = Array(#"{"webcredentials":{"apps":[\#(apps.joined(separator: ","))]},"appclips":{"apps":[]}}"#.utf8)

try measure("parse tacos.example fixture (\(tacos.count) B)", bytes: tacos.count, iterations: 20_000) {
    try AssociationFile.parse(tacos).root.members.count
}
try measure("parse 1500-component file (\(large.count) B)", bytes: large.count, iterations: 100) {
    try AssociationFile.parse(large).root.members.count
}
try measure("parse 3000-app webcredentials (\(list.count) B)", bytes: list.count, iterations: 100) {
    try AssociationFile.parse(list).apps(for: .webcredentials)?.count ?? 0
}
measure("lint 1500-component file (\(large.count) B)", bytes: large.count, iterations: 20) {
    AssociationLinter().lint(large).count
}
