// libFuzzer target "macho": see FuzzHarness.machO and Tools/fuzz.
import FuzzDriver
import SWCredFuzzHarness

runFuzzer { data in
    let problems = FuzzHarness.machO([UInt8](data))
    if !problems.isEmpty { fatalError("broken promise: \(problems)") }
}
