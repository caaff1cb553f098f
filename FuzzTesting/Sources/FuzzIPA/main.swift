// libFuzzer target "ipa": see FuzzHarness.ipa and Tools/fuzz.
import FuzzDriver
import SWCredFuzzHarness

runFuzzer { data in
    let problems = FuzzHarness.ipa([UInt8](data))
    if !problems.isEmpty { fatalError("broken promise: \(problems)") }
}
