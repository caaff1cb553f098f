// libFuzzer target "assetlinks": see FuzzHarness.assetLinks and Tools/fuzz.
import FuzzDriver
import SWCredFuzzHarness

runFuzzer { data in
    let problems = FuzzHarness.assetLinks([UInt8](data))
    if !problems.isEmpty { fatalError("broken promise: \(problems)") }
}
