// libFuzzer target "entitlements": see FuzzHarness.entitlements and Tools/fuzz.
import FuzzDriver
import SWCredFuzzHarness

runFuzzer { data in
    let problems = FuzzHarness.targets["entitlements"]?([UInt8](data)) ?? []
    if !problems.isEmpty { fatalError("broken promise: \(problems)") }
}
