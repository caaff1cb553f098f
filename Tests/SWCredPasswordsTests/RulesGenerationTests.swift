import Foundation
import SWCredCore
import Testing

@testable import SWCredPasswords

@Suite("Generation under Password Rules (PW-1, PW-5)")
struct RulesGenerationTests {
    static func generate(_ rules: String, seed: UInt64 = 1, style: PasswordStyle = .strong) throws(SWCredError)
        -> GeneratedPassword
    {
        var source = SeededRandomSource(seed: seed)
        return try PasswordGenerator.generate(style: style, rules: try PasswordRules.parse(rules), using: &source)
    }

    @Test("PW-5.4 example: required upper, digit; allowed lower, [-]; 20–24; max-consecutive 2 → strong, dashed")
    func strongDashedExample() throws {
        let rules =
            "required: upper; required: digit; allowed: lower, [-]; minlength: 20; maxlength: 24; max-consecutive: 2;"
        for seed in UInt64(0)..<50 {
            let generated = try Self.generate(rules, seed: seed)
            #expect(generated.style == .strong)
            #expect(generated.password.count == 20)
            #expect(Array(generated.password)[6] == "-" && Array(generated.password)[13] == "-")
            #expect(try PasswordRules.parse(rules).isSatisfied(by: generated.password))
        }
    }

    @Test("PW-5.5 example: allowed upper, lower, digit; 8–12 → classic, undashed, 12 characters")
    func classicUndashedExample() throws {
        let rules = "allowed: upper, lower, digit; minlength: 8; maxlength: 12;"
        for seed in UInt64(0)..<50 {
            let generated = try Self.generate(rules, seed: seed)
            #expect(generated.style == .classic)
            #expect(generated.password.count == 12)
            #expect(!generated.password.contains("-"))
            let p = generated.password
            #expect(
                p.contains(where: \.isLowercase) && p.contains(where: \.isUppercase) && p.contains(where: \.isNumber))
        }
    }

    @Test("PW-3.4/PW-5.4: no dash allowed → the 18-character strong variant")
    func strongWithoutDashes() throws {
        let generated = try Self.generate("required: lower; required: upper; required: digit;")
        #expect(generated.style == .strong)
        #expect(generated.password.count == 18)
        #expect(!generated.password.contains("-"))
        #expect(GeneratedPassword.formatBits(generated.entropyBits) == "71.88")
    }

    @Test("PW-5.4 Decision: the 18-character variant needs minlength ≤ 18, else classic")
    func strongVariantNeedsMinLength18() throws {
        let generated = try Self.generate("allowed: upper, lower, digit; minlength: 19;")
        #expect(generated.style == .classic)
        #expect(generated.password.count >= 19)
    }

    @Test("PW-5.5 Decision: classic undashed length is raised to minlength (13–15)")
    func classicRaisedToMinLength() throws {
        let generated = try Self.generate("allowed: lower, digit; minlength: 14;")
        #expect(generated.style == .classic)
        #expect(generated.password.count == 14)
    }

    @Test("PW-5.5: classic dashed when '-' is allowed and 15 fits; '-' is only a separator")
    func classicDashed() throws {
        let generated = try Self.generate("allowed: lower, digit, [-]; maxlength: 15;")
        #expect(generated.style == .classic)
        let chars = Array(generated.password)
        #expect(chars.count == 15)
        #expect(chars[3] == "-" && chars[7] == "-" && chars[11] == "-")
        #expect(chars.filter { $0 == "-" }.count == 3)
    }

    @Test("PW-5.3: default required sets a–z, A–Z, 0–9; those foreign to the allowed set are dropped")
    func defaultRequiredSets() throws {
        let (plan, _) = try GenerationPlan.adapting(try PasswordRules.parse("allowed: lower, digit; maxlength: 12;"))
        #expect(plan.constraints.required == [.lower, .digit])
        for seed in UInt64(0)..<30 {
            let p = try Self.generate("allowed: lower, digit; maxlength: 12;", seed: seed).password
            #expect(p.contains(where: \.isLowercase) && p.contains(where: \.isNumber))
        }
        // Rule-given sets are never dropped, even when they outnumber the characters (then: infeasible).
        let (given, _) = try GenerationPlan.adapting(
            try PasswordRules.parse("required: [a]; required: [b]; maxlength: 1;"))
        #expect(given.constraints.required.count == 2)
        #expect(throws: SWCredError(.infeasible, "")) {
            try Self.generate("required: [a]; required: [b]; maxlength: 1;")
        }
    }

    @Test("PW-5.2: minlength greater than maxlength is ignored, with a warning")
    func minLengthAboveMaxLength() throws {
        let generated = try Self.generate("minlength: 30; maxlength: 10;")
        #expect(generated.password.count == 10)
        #expect(generated.warnings.contains { $0.contains("minlength 30") })
        #expect(generated.rules?.minLength == 30)
        #expect(generated.enforcedRules?.minLength == nil)
        #expect(generated.enforcedRules?.isSatisfied(by: generated.password) == true)
    }

    @Test("PW-5.1 Decision: space is never generated; a required set of only a space is infeasible")
    func spaceDecision() throws {
        for seed in UInt64(0)..<100 {
            #expect(!(try Self.generate("allowed: special; minlength: 30;", seed: seed)).password.contains(" "))
        }
        #expect(throws: SWCredError(.infeasible, "")) { try Self.generate("required: [ ]; allowed: lower;") }
        #expect(throws: SWCredError(.infeasible, "")) { try Self.generate("allowed: [ ];") }
        // Only '-' allowed: no dashed grouping (nothing to group), twelve dashes.
        #expect(try Self.generate("allowed: [-];").password == "------------")
    }

    @Test("PW-1.5: infeasible rules fail with infeasible naming the conflicting constraints")
    func infeasibleNamesConflict() throws {
        do {
            _ = try Self.generate("required: [a]; required: [b]; required: [c]; allowed: lower; maxlength: 2;")
            Issue.record("expected infeasible")
        } catch {
            #expect(error.code == .infeasible)
            #expect(error.message.contains("[a]") && error.message.contains("[b]") && error.message.contains("[c]"))
        }
        do {
            _ = try Self.generate("allowed: [a]; minlength: 5; max-repeating: 2;")
            Issue.record("expected infeasible")
        } catch {
            #expect(error.code == .infeasible)
            #expect(error.message.contains("identical"))
        }
        // An empty required list (the reference keeps `required: []`) can never be met.
        #expect(throws: SWCredError(.infeasible, "")) { try Self.generate("required: []; minlength: 8;") }
    }

    @Test("limits: more than 256 characters, or more than 12 independent required sets, is limitExceeded (exit 27)")
    func limits() throws {
        #expect(throws: SWCredError(.limitExceeded, "")) { try Self.generate("minlength: 300;") }
        let thirteen = "abcdefghijkmn".map { "required: [\($0)];" }.joined(separator: " ") + " maxlength: 13;"
        #expect(throws: SWCredError(.limitExceeded, "")) { try Self.generate(thirteen) }
    }

    @Test("PW-6.4: a warning below 64 bits, but the password is still generated")
    func lowEntropyWarning() throws {
        let generated = try Self.generate("allowed: digit; minlength: 6; maxlength: 6;")
        #expect(generated.password.count == 6)
        #expect(generated.password.allSatisfy { $0.isNumber })
        #expect(generated.outputCount == BigUInt(1_000_000))
        #expect(generated.warnings.contains { $0.contains("below 64") })
    }

    @Test("PW-1.4: exact sampling when acceptance is tiny (5 single-character required sets in 6)")
    func exactSamplingPath() throws {
        let rules =
            "required: [q]; required: [x]; required: [z]; required: [j]; required: [7]; allowed: ascii-printable; maxlength: 6;"
        let prepared = try PreparedGenerator(rules: try PasswordRules.parse(rules))
        #expect(prepared.exact)
        var source = SeededRandomSource(seed: 5)
        for _ in 0..<50 {
            let generated = try prepared.next(using: &source)
            #expect(try PasswordRules.parse(rules).isSatisfied(by: generated.password))
        }
    }

    @Test("PW-1.4: exact sampling is uniform (120 permutations of abcde, chi-square α = 0.001)")
    func exactSamplingIsUniform() throws {
        let letters = ASCIISet("abcde")
        let space = PasswordSpace(
            shapes: [Array(repeating: letters, count: 5)],
            constraints: Constraints(required: "abcde".utf8.map { ASCIISet(bytes: [$0]) }))
        #expect(try space.count() == BigUInt(120))
        var source = SeededRandomSource(seed: 11)
        var counts: [String: Int] = [:]
        let n = 12_000
        let sampler = try ExactSampler(space)
        for _ in 0..<n { counts[String(decoding: try sampler.sample(using: &source), as: UTF8.self), default: 0] += 1 }
        #expect(counts.count == 120)
        let expected = Double(n) / 120
        let chi = counts.values.reduce(0.0) { $0 + (Double($1) - expected) * (Double($1) - expected) / expected }
        // χ²₁₁₉ at α = 0.001 is 173.2.
        #expect(chi < 173.2, "χ² = \(chi)")
    }

    @Test("PW-1.4: exact sampling is uniform over marked shapes too (8 strings, chi-square α = 0.001)")
    func exactSamplingWithMarks() throws {
        let space = PasswordSpace(
            shapes: [Shape(plain: [ASCIISet("ab"), ASCIISet("ab")], marked: [ASCIISet("AB"), ASCIISet("AB")])],
            constraints: Constraints())
        #expect(try space.count() == BigUInt(8))
        let sampler = try ExactSampler(space)
        var source = SeededRandomSource(seed: 8)
        var counts: [String: Int] = [:]
        let n = 8_000
        for _ in 0..<n { counts[String(decoding: try sampler.sample(using: &source), as: UTF8.self), default: 0] += 1 }
        #expect(Set(counts.keys) == ["Aa", "Ab", "Ba", "Bb", "aA", "aB", "bA", "bB"])
        let expected = Double(n) / 8
        let chi = counts.values.reduce(0.0) { $0 + (Double($1) - expected) * (Double($1) - expected) / expected }
        // χ²₇ at α = 0.001 is 24.32.
        #expect(chi < 24.32, "χ² = \(chi)")
    }

    @Test("PW-1.4: exact sampling is uniform under run limits (chi-square α = 0.001 over every member)")
    func exactSamplingWithRunLimits() throws {
        // 5 characters over a, b, c, d with a "d", no identical pair and no sequence of three.
        let shape = [ASCIISet](repeating: ASCIISet("abcd"), count: 5)
        let constraints = Constraints(required: [ASCIISet("d")], maxRepeating: 1, maxSequential: 2)
        let space = PasswordSpace(shapes: [shape], constraints: constraints)
        var members: Set<String> = []
        func walk(_ prefix: [UInt8]) {
            if prefix.count == 5 {
                if constraints.isSatisfied(by: prefix) { members.insert(String(decoding: prefix, as: UTF8.self)) }
                return
            }
            for c in Array("abcd".utf8) { walk(prefix + [c]) }
        }
        walk([])
        #expect(try space.count() == BigUInt(UInt64(members.count)))
        let sampler = try ExactSampler(space)
        var source = SeededRandomSource(seed: 29)
        var counts: [String: Int] = [:]
        let perMember = 60
        for _ in 0..<(perMember * members.count) {
            counts[String(decoding: try sampler.sample(using: &source), as: UTF8.self), default: 0] += 1
        }
        #expect(Set(counts.keys) == members)
        let chi = counts.values.reduce(0.0) { $0 + (Double($1 - perMember) * Double($1 - perMember)) / Double(perMember) }
        // The critical value of χ² with k − 1 degrees of freedom at α = 0.001 (Wilson–Hilferty).
        let k = Double(members.count - 1)
        let z = 3.0902
        let critical = k * pow(1 - 2 / (9 * k) + z * (2 / (9 * k)).squareRoot(), 3)
        #expect(chi < critical, "χ² = \(chi), critical \(critical), \(members.count) members")
    }

    @Test("limits: counting past its work limit is refused quickly with limitExceeded (exit 27)")
    func countingWorkLimit() throws {
        // 12 single-letter required sets and max-consecutive 2 over 40 characters: about 2^12 masks
        // × 94 last characters × run states per position.
        let sets = "abcdefghijkm".map { "required: [\($0)];" }.joined(separator: " ")
        let rules = try PasswordRules.parse("minlength: 40; \(sets) max-consecutive: 2;")
        #expect(throws: SWCredError(.limitExceeded, "")) { try PreparedGenerator(rules: rules) }
        // With max-consecutive 4 the dense state space (2^12 masks × 128 characters × 16 run
        // descriptors) is past its limit: refused before any counting.
        let wider = try PasswordRules.parse("minlength: 40; \(sets) max-consecutive: 4;")
        #expect(throws: SWCredError(.limitExceeded, "")) { try PreparedGenerator(rules: wider) }
        // The rules of real sites are nowhere near: bankofamerica.com's quirk counts exactly.
        let bank = try PasswordRules.parse(
            "minlength: 8; maxlength: 20; max-consecutive: 3; required: lower; required: upper; required: digit; allowed: [-@#*()+={}/?~;,._];")
        #expect(try PreparedGenerator(rules: bank).outputCount > .zero)
    }

    /// PW-1.3's example: L = 15 over 24 lower, 24 upper, 8 digits, one of each required. Uniform over
    /// V gives a digit at a position with probability 0.159 (exact, from the counter); "mins + fill +
    /// shuffle" gives 0.181. The tolerance is 5 standard errors of the sample mean, estimated from
    /// the per-password digit fractions (false failure ≈ 6·10⁻⁷).
    @Test("PW-1.3: the mins+fill+shuffle bias does not occur (digit frequency ≈ 0.159, not 0.181)")
    func noMinsFillShuffleBias() throws {
        let lower = ASCIISet("abcdefghijklmnopqrstuvwx")
        let upper = ASCIISet("ABCDEFGHIJKLMNOPQRSTUVWX")
        let digits = ASCIISet("23456789")
        let alphabet = lower.union(upper).union(digits)
        let constraints = Constraints(required: [lower, upper, digits])
        let space = PasswordSpace(shapes: [Array(repeating: alphabet, count: 15)], constraints: constraints)
        var firstIsDigit = space.shapes[0]
        firstIsDigit.plain[0] = digits
        let exact = try Self.ratio(
            PasswordSpace(shapes: [firstIsDigit], constraints: constraints).count(), try space.count())
        #expect(abs(exact - 0.159) < 0.0005)

        let plan = GenerationPlan(
            kind: .classic(alphabet: alphabet, length: 15, dashed: false), constraints: constraints, checkRules: nil)
        let prepared = try PreparedGenerator(plan: plan, fallback: nil, rules: nil)
        var source = SeededRandomSource(seed: 1503)
        let n = 20_000
        var fractions: [Double] = []
        for _ in 0..<n {
            let p = try prepared.next(using: &source).password.utf8
            fractions.append(Double(p.filter(digits.contains).count) / 15)
        }
        let (mean, standardError) = Self.meanAndStandardError(fractions)
        #expect(abs(mean - exact) < 5 * standardError, "mean \(mean), exact \(exact), se \(standardError)")

        // The same test rejects the biased method: mins + fill + shuffle.
        let pools = [lower.members, upper.members, digits.members]
        let all = alphabet.members
        var biased: [Double] = []
        for _ in 0..<n {
            var chars = try pools.map { $0[try source.uniform($0.count)] }
            for _ in 0..<12 { chars.append(all[try source.uniform(all.count)]) }
            for i in stride(from: chars.count - 1, to: 0, by: -1) { chars.swapAt(i, try source.uniform(i + 1)) }
            biased.append(Double(chars.filter(digits.contains).count) / 15)
        }
        let (biasedMean, biasedError) = Self.meanAndStandardError(biased)
        #expect(abs(biasedMean - 0.181) < 0.003)
        #expect(abs(biasedMean - exact) > 5 * biasedError)
    }

    static func ratio(_ a: BigUInt, _ b: BigUInt) throws -> Double {
        (Double(a.description) ?? 0) / (Double(b.description) ?? 1)
    }

    static func meanAndStandardError(_ values: [Double]) -> (Double, Double) {
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
        return (mean, (variance / Double(values.count)).squareRoot())
    }

    @Test("PW-5.6 Decision: the strong style falls back to classic after 100000 consecutive rejections")
    func strongFallsBackToClassic() throws {
        // Eleven specific consonants in the strong style's eleven consonant positions: possible
        // (acceptance about 3·10⁻⁷), but far below one in 100000 candidates. Exact sampling is switched
        // off to reach the fallback.
        let rules = try PasswordRules.parse(
            "bcdfghjkqxz".map { "required: [\($0)];" }.joined(separator: " ") + " allowed: lower, upper, digit, [-];")
        let (strong, classic) = try GenerationPlan.adapting(rules)
        #expect(strong.style == .strong)
        let prepared = try PreparedGenerator(plan: strong, fallback: classic, rules: rules, exactSampling: false)
        #expect(try prepared.space.count() > .zero)
        var source = SeededRandomSource(seed: 56)
        let generated = try prepared.next(using: &source)
        #expect(generated.style == .classic)
        #expect(rules.isSatisfied(by: generated.password))
        #expect(generated.warnings.contains { $0.contains("classic") })
        // With exact sampling (the default), the strong style is kept.
        let exact = try PreparedGenerator(plan: strong, fallback: classic, rules: rules)
        #expect(exact.exact)
        #expect(try exact.next(using: &source).style == .strong)
    }

    @Test("PW-5.6: the generator checks every rule (repeat and sequence limits in classic)")
    func runLimitsHold() throws {
        let rules = try PasswordRules.parse("allowed: [abc123]; minlength: 16; maxlength: 16; max-consecutive: 1;")
        var source = SeededRandomSource(seed: 3)
        let prepared = try PreparedGenerator(rules: rules)
        for _ in 0..<200 {
            let p = try prepared.next(using: &source).password
            let runs = RunLengths(p.unicodeScalars.map(\.value))
            #expect(runs.longestRepeat <= 1 && runs.longestSequence <= 1)
        }
    }

    @Test(
        "PW-5 with Apple's data: every rule in password-rules.json yields compliant passwords",
        .enabled(if: QuirksData.available, "Apple's quirks data (../shared/data) is absent"))
    func everyQuirkRule() throws {
        guard let file = QuirksData.passwordRulesFile else { return }
        let quirks = try PasswordRulesQuirks(contentsOfFile: file.path)
        #expect(quirks.entries.count > 400)
        var source = SeededRandomSource(seed: 2024)
        var failures: [String] = []
        for (domain, entry) in quirks.entries.sorted(by: { $0.key < $1.key }) {
            let rules = try PasswordRules.parse(entry.rules)
            do {
                let prepared = try PreparedGenerator(rules: rules)
                for _ in 0..<3 {
                    let generated = try prepared.next(using: &source)
                    if !rules.isSatisfied(by: generated.password) { failures.append(domain) }
                    let bits = generated.entropyBits
                    if !(bits > 0) { failures.append("\(domain): entropy \(bits)") }
                }
            } catch {
                failures.append("\(domain): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(10))")
    }
}
