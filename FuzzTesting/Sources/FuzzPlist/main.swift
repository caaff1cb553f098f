// libFuzzer target "plist": see FuzzHarness.plist and Tools/fuzz.
import FuzzDriver
import SWCredFuzzHarness

runFuzzer { data in
    let problems = FuzzHarness.plist([UInt8](data))
    if !problems.isEmpty { fatalError("broken promise: \(problems)") }
}
