// libFuzzer target "password-rules": see FuzzHarness.passwordRules and Tools/fuzz.
import FuzzDriver
import SWCredFuzzHarness

runFuzzer { data in
    let problems = FuzzHarness.targets["password-rules"]?([UInt8](data)) ?? []
    if !problems.isEmpty { fatalError("broken promise: \(problems)") }
}
