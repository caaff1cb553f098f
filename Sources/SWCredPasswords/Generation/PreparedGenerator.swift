package import SWCredCore

/// A generator with its plan and exact count computed once, for generating many passwords
/// (`swcred generate --count N`) without recounting.
///
/// ```swift
/// let generator = try PreparedGenerator(style: .strong, rules: PasswordRules.parse("maxlength: 16;"))
/// var source = SodiumRandomSource()
/// for _ in 0..<5 { print(try generator.next(using: &source).password) }
/// ```
package struct PreparedGenerator: Sendable {
    let plan: GenerationPlan
    let fallback: GenerationPlan?
    let rules: PasswordRules?
    let space: PasswordSpace
    let count: BigUInt
    let exact: Bool
    /// The forward tables, computed once when sampling exactly.
    let sampler: ExactSampler?
    let members: [[UInt8]]

    /// The style this generator produces (before any run-time fallback).
    package var style: PasswordStyle { plan.style }
    /// |V| of the generator.
    package var outputCount: BigUInt { count }
    /// log2 |V|.
    package var entropyBits: Double { count.log2 }
    /// Warnings known before generating (parser diagnostics, ignored minlength, fallbacks).
    package var warnings: [String] { plan.warnings }

    /// The legacy format, counted once per process.
    static let legacy = Result { () throws(SWCredError) in
        try PreparedGenerator(
            plan: GenerationPlan(
                kind: .legacy, constraints: Constraints(required: LegacyFormat.requiredSets), checkRules: nil),
            fallback: nil, rules: nil)
    }

    /// Safari's strong format without rules, counted once per process.
    static let strong = Result { () throws(SWCredError) in
        try PreparedGenerator(
            plan: GenerationPlan(kind: .strong(dashed: true), constraints: Constraints(), checkRules: nil),
            fallback: nil, rules: nil)
    }

    /// The classic format without rules, counted once per process.
    static let classic = Result { () throws(SWCredError) in
        try PreparedGenerator(
            plan: GenerationPlan(
                kind: .classic(alphabet: ClassicFormat.defaultAlphabet, length: 12, dashed: true),
                constraints: Constraints(required: [.lower, .upper, .digit]), checkRules: nil),
            fallback: nil, rules: nil)
    }

    /// Prepares `style` under `rules` (see ``PasswordGenerator/generate(style:rules:using:)``).
    /// - Throws: `infeasible`, `invalidParameter` (legacy with rules), `limitExceeded`.
    package init(style: PasswordStyle = .strong, rules: PasswordRules? = nil) throws(SWCredError) {
        switch (style, rules) {
        case (.legacy, nil):
            self = try Self.legacy.get()
        case (.legacy, .some):
            throw SWCredError(
                .invalidParameter, "the legacy format has fixed rules; it cannot be combined with password rules")
        case (.strong, nil):
            self = try Self.strong.get()
        case (.classic, nil):
            self = try Self.classic.get()
        case (_, let rules?):
            let (primary, fallback) = try GenerationPlan.adapting(rules, forceClassic: style == .classic)
            try self.init(plan: primary, fallback: fallback, rules: rules)
        }
    }

    /// Counts V for `plan` (falling back when it is empty) and picks the sampling method.
    /// - Parameters:
    ///   - plan: what to generate.
    ///   - fallback: the classic plan for a strong `plan` (PW-5.6).
    ///   - rules: the rules to report with each password.
    ///   - exactSampling: `false` only in tests, to exercise the rejection path and the strong
    ///     style's fallback where exact sampling would otherwise be chosen.
    /// - Throws: `infeasible` when neither plan admits a password; `limitExceeded` from counting.
    init(plan: GenerationPlan, fallback: GenerationPlan?, rules: PasswordRules?, exactSampling: Bool = true)
        throws(SWCredError)
    {
        // One counting pass per plan, keeping its tables for exact sampling; the primary and the
        // fallback plan share one work budget, so preparing is bounded as a whole.
        var plan = plan
        var fallback = fallback
        var work = 0
        var space = plan.space
        var counted = try ExactSampler(space, work: &work)
        if counted.total.isZero, let next = fallback {
            plan = next
            fallback = nil
            space = plan.space
            counted = try ExactSampler(space, work: &work)
        }
        let count = counted.total
        guard !count.isZero else { throw plan.infeasibleError() }
        self.plan = plan
        self.fallback = fallback
        self.rules = rules
        self.space = space
        self.count = count
        // PW-1.4: exact sampling when the acceptance rate is below 2^-threshold.
        let exact =
            exactSampling
            && count * BigUInt(UInt64(1) << UInt64(PasswordGenerator.exactSamplingThreshold)) < space.baseCount()
        self.exact = exact
        self.sampler = exact ? counted : nil
        self.members = space.shapes.first.map { shape in (0..<shape.count).map { shape.alphabet($0).members } } ?? []
    }

    /// Generates one password, uniform over V.
    /// - Throws: what `source` throws; `internalError` if a generated password failed the final
    ///   rules check (never returned).
    package func next<R: RandomSource>(using source: inout R) throws(SWCredError) -> GeneratedPassword {
        var bytes: [UInt8]
        if let sampler {
            bytes = try sampler.sample(using: &source)
        } else {
            var rejections = 0
            while true {
                let candidate: [UInt8]?
                switch plan.kind {
                case .legacy: candidate = try LegacyFormat.candidate(using: &source)
                case .strong(let dashed): candidate = try StrongFormat.candidate(dashed: dashed, using: &source)
                case .classic: candidate = try ClassicFormat.candidate(members: members, using: &source)
                }
                if let candidate, plan.constraints.isSatisfied(by: candidate) {
                    bytes = candidate
                    break
                }
                rejections += 1
                // PW-5.6: the strong style gives up after 100000 consecutive rejections.
                if case .strong = plan.kind, rejections >= PasswordGenerator.strongRejectionLimit, let fallback {
                    let classic = try PreparedGenerator(plan: fallback, fallback: nil, rules: rules)
                    return try classic.next(using: &source)
                }
            }
        }
        let password = String(decoding: bytes, as: UTF8.self)
        // PW-1.5: never return a password that breaks a parsed rule.
        if let check = plan.checkRules, !check.isSatisfied(by: password) {
            throw SWCredError(
                .internalError, "a generated password failed the rules check (a generator bug); nothing was returned")
        }
        let bits = count.log2
        var warnings = plan.warnings
        if bits < GeneratedPassword.lowEntropyThreshold {
            warnings.append(
                "the password has only \(GeneratedPassword.formatBits(bits)) bits of entropy (below 64); the rules allow no stronger password"
            )
        }
        if !source.isSecret {
            warnings.append("generated from a deterministic test source: NOT SECRET")
        }
        return GeneratedPassword(
            password: password, style: plan.style, outputCount: count, entropyBits: bits, rules: rules,
            enforcedRules: plan.checkRules, isSecret: source.isSecret, warnings: warnings)
    }
}
