// libFuzzer target "store-reader": see FuzzHarness.storeReader and Tools/fuzz.
import FuzzDriver
import SWCredFuzzHarness

runFuzzer { data in
    let problems = FuzzHarness.targets["store-reader"]?([UInt8](data)) ?? []
    if !problems.isEmpty { fatalError("broken promise: \(problems)") }
}
