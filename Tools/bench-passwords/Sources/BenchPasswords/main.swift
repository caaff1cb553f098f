// Generation rate of swcred's password generators, in release mode, with the production random
// source (libsodium). Each case runs for about `--seconds` (default 2) after a short warm-up and
// prints passwords per second and the exact entropy. Counting (the exact |V|) is timed apart,
// since `PreparedGenerator` does it once per rule set.
import Foundation
import SWCredCore
import SWCredPasswords

let seconds: Double = {
    var arguments = CommandLine.arguments.dropFirst()
    var value = 2.0
    while let argument = arguments.popFirst() {
        if argument == "--seconds", let given = arguments.popFirst().flatMap(Double.init) { value = given }
    }
    return value
}()

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

func rate(_ label: String, _ generator: PreparedGenerator) throws {
    var source = SodiumRandomSource()
    for _ in 0..<1000 { _ = try generator.next(using: &source) }
    var count = 0
    let start = now()
    var elapsed = 0.0
    while elapsed < seconds {
        for _ in 0..<1000 { _ = try generator.next(using: &source) }
        count += 1000
        elapsed = now() - start
    }
    let perSecond = Double(count) / elapsed
    let bits = GeneratedPassword.formatBits(generator.entropyBits)
    print(
        "\(label.padding(toLength: 58, withPad: " ", startingAt: 0)) \(String(format: "%10.0f", perSecond)) passwords/s  \(bits) bits  (\(generator.style.rawValue))"
    )
}

func countingTime(_ label: String, _ rules: String) throws {
    let parsed = try PasswordRules.parse(rules)
    _ = try PreparedGenerator(rules: parsed)
    var runs = 0
    let start = now()
    var elapsed = 0.0
    while elapsed < seconds / 2 {
        _ = try PreparedGenerator(rules: parsed)
        runs += 1
        elapsed = now() - start
    }
    print(
        "\(label.padding(toLength: 58, withPad: " ", startingAt: 0)) \(String(format: "%10.3f", elapsed / Double(runs) * 1000)) ms per prepare (count |V|)"
    )
}

do {
    print("swcred password generators, release build, libsodium randombytes")
    try rate("legacy (SecCreateSharedWebCredentialPassword)", PreparedGenerator(style: .legacy))
    try rate("strong (xxxxxx-xxxxxx-xxxxxx)", PreparedGenerator(style: .strong))
    try rate("classic (xxx-xxx-xxx-xxx)", PreparedGenerator(style: .classic))
    let examples = [
        (
            "rules: PW-5.4 example (strong, max-consecutive 2)",
            "required: upper; required: digit; allowed: lower, [-]; minlength: 20; maxlength: 24; max-consecutive: 2;"
        ),
        (
            "rules: apple.com quirk",
            "minlength: 8; maxlength: 63; required: lower; required: upper; required: digit; allowed: ascii-printable;"
        ),
        (
            "rules: bankofamerica.com quirk (max-consecutive 3)",
            "minlength: 8; maxlength: 20; max-consecutive: 3; required: lower; required: upper; required: digit; allowed: [-@#*()+={}/?~;,._];"
        ),
        ("rules: digits only, maxlength 6 (classic)", "allowed: digit; maxlength: 6;"),
        (
            "rules: exact sampling (5 single-character sets in 6 of 95)",
            "required: [q]; required: [x]; required: [z]; required: [j]; required: [7]; allowed: ascii-printable; maxlength: 6;"
        ),
    ]
    for (label, rules) in examples {
        try rate(label, PreparedGenerator(rules: PasswordRules.parse(rules)))
    }
    print("")
    for (label, rules) in examples { try countingTime(label, rules) }
    // The slowest inputs the password-rules fuzz target found (FuzzTesting/FailCases/password-rules),
    // and rules near the counting limits.
    let hard = [
        ("minlength 32, 4 required sets, max-consecutive 2",
         "minlength: 32; required: lower; required: upper; required: digit; required: special; max-consecutive: 2;"),
        ("minlength 64, 4 required sets, max-consecutive 2",
         "minlength: 64; required: lower; required: upper; required: digit; required: special; max-consecutive: 2;"),
        ("fuzz: minlength 8, maxlength 10, max-consecutive 8 (classic, 10)",
         "minlength: 8; maxlength: 10; max-consecutive: 8; required: lower; required: upper; required: digit; required: [-@#*()+={}/?~;,._]; allowed: ascii-printable;"),
        ("classic 12, 6 required sets, max-consecutive 3",
         "maxlength: 12; max-consecutive: 3; required: lower; required: upper; required: digit; required: [-]; required: [!]; required: [#]; allowed: ascii-printable;"),
        ("minlength 128, 4 required sets, max-consecutive 5",
         "minlength: 128; required: lower; required: upper; required: digit; required: special; max-consecutive: 5;"),
        ("strong, 11 single-consonant required sets (no run limit)",
         "bcdfghjkqxz".map { "required: [\($0)];" }.joined(separator: " ") + " allowed: lower, upper, digit, [-];"),
        ("classic 40, 12 single-letter required sets (no run limit)",
         "minlength: 40; " + "abcdefghijkm".map { "required: [\($0)];" }.joined(separator: " ")),
        ("12 required sets, minlength 40, max-consecutive 2",
         "minlength: 40; required: [a]; required: [b]; required: [c]; required: [d]; required: [e]; required: [f]; required: [g]; required: [h]; required: [i]; required: [j]; required: [k]; required: [m]; max-consecutive: 2;"),
        ("minlength 256, 4 required sets, max-consecutive 16",
         "minlength: 256; required: lower; required: upper; required: digit; required: special; max-consecutive: 16;"),
    ]
    for (label, rules) in hard {
        do {
            try countingTime(label, rules)
        } catch {
            // Refused: time how long counting ran before the work limit stopped it.
            let parsed = try PasswordRules.parse(rules)
            let start = now()
            _ = try? PreparedGenerator(rules: parsed)
            let ms = (now() - start) * 1000
            print(
                "\(label.padding(toLength: 58, withPad: " ", startingAt: 0)) \(String(format: "%10.3f", ms)) ms to refuse: \((error as? SWCredError)?.message ?? "\(error)")"
            )
        }
    }
    // Every rule of Apple's quirks data (../shared/data when present, else the bundled sample):
    // the slowest preparation.
    let here = URL(fileURLWithPath: #filePath)
    let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let candidates = [
        root.deletingLastPathComponent().appendingPathComponent("shared/data/password-manager-resources/password-rules.json"),
        root.appendingPathComponent("Fixtures/quirks/password-rules.json"),
    ]
    if let file = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) {
        let quirks = try PasswordRulesQuirks(contentsOfFile: file.path)
        var slowest = (0.0, "")
        var refused = 0
        for entry in quirks.entries.values {
            let start = now()
            do {
                _ = try PreparedGenerator(rules: PasswordRules.parse(entry.rules))
            } catch {
                if error.code == .limitExceeded { refused += 1 }
            }
            let ms = (now() - start) * 1000
            if ms > slowest.0 { slowest = (ms, entry.domain) }
        }
        print(
            "quirks: \(quirks.entries.count) rules (\(file.lastPathComponent) in \(file.deletingLastPathComponent().lastPathComponent)); slowest prepare \(String(format: "%.3f", slowest.0)) ms (\(slowest.1)); \(refused) refused for limits"
        )
    }
} catch {
    print("benchmark failed: \(error)")
    exit(1)
}
