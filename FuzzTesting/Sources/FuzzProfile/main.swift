// libFuzzer target "profile": see FuzzHarness.profile and Tools/fuzz.
import FuzzDriver
import SWCredFuzzHarness

runFuzzer { data in
    let problems = FuzzHarness.profile([UInt8](data))
    if !problems.isEmpty { fatalError("broken promise: \(problems)") }
}
