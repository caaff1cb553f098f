// libFuzzer target "aasa": see FuzzHarness.aasa and Tools/fuzz.
import FuzzDriver
import SWCredFuzzHarness

runFuzzer { data in
    let problems = FuzzHarness.targets["aasa"]?([UInt8](data)) ?? []
    if !problems.isEmpty { fatalError("broken promise: \(problems)") }
}
