// libFuzzer target "android-manifest": see FuzzHarness.androidManifest and Tools/fuzz.
import FuzzDriver
import SWCredFuzzHarness

runFuzzer { data in
    let problems = FuzzHarness.androidManifest([UInt8](data))
    if !problems.isEmpty { fatalError("broken promise: \(problems)") }
}
