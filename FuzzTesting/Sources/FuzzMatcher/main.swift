// libFuzzer target "matcher": see FuzzHarness.matcher and Tools/fuzz.
import FuzzDriver
import SWCredFuzzHarness

runFuzzer { data in
    let problems = FuzzHarness.targets["matcher"]?([UInt8](data)) ?? []
    if !problems.isEmpty { fatalError("broken promise: \(problems)") }
}
