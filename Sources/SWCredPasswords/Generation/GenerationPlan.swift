import SWCredCore

/// What to generate: a format, its constraints, and the rules to check the result against.
struct GenerationPlan {
    enum Kind: Equatable {
        case legacy
        case strong(dashed: Bool)
        case classic(alphabet: ASCIISet, length: Int, dashed: Bool)
    }

    var kind: Kind
    var constraints: Constraints
    /// The rules the output must satisfy (PW-1.5); `minlength` removed when PW-5.2 ignores it.
    var checkRules: PasswordRules?
    var warnings: [String] = []

    /// The longest password the generators produce (Apple's quirks ask for at most 20 characters as
    /// a minimum; a longer length only comes from `minlength`).
    static let maximumLength = 256

    var style: PasswordStyle {
        switch kind {
        case .legacy: return .legacy
        case .strong: return .strong
        case .classic: return .classic
        }
    }

    var space: PasswordSpace {
        switch kind {
        case .legacy:
            return LegacyFormat.space
        case .strong(let dashed):
            return PasswordSpace(shapes: StrongFormat.shapes(dashed: dashed), constraints: constraints)
        case .classic(let alphabet, let length, let dashed):
            return PasswordSpace(
                shapes: [Shape(ClassicFormat.shape(alphabet: alphabet, length: length, dashed: dashed))],
                constraints: constraints)
        }
    }

    /// A human description of the constraints, for `infeasible` messages.
    func describe(_ subset: Constraints) -> String {
        var parts: [String] = []
        for set in subset.required { parts.append("required [\(set)]") }
        if let n = subset.maxRepeating { parts.append("no more than \(n) identical characters in a row") }
        if let n = subset.maxSequential { parts.append("no sequential run longer than \(n)") }
        return parts.joined(separator: ", ")
    }

    /// Names a minimal set of conflicting constraints (a deletion filter: a constraint is dropped
    /// when the rest still admit no password).
    func infeasibleError() -> SWCredError {
        var shape = "the chosen format"
        if case .classic(let alphabet, let length, let dashed) = kind {
            shape = "\(length) characters from [\(alphabet)]" + (dashed ? " grouped xxx-xxx-xxx-xxx" : "")
        }
        var kept = constraints
        // The filter shares one work budget: past it a trial counts as "not empty", so the named
        // set stays a true conflict, only perhaps not a minimal one.
        var work = 0
        func isEmpty(_ c: Constraints) -> Bool {
            var plan = self
            plan.constraints = c
            return (try? plan.space.count(work: &work, workLimit: PasswordSpace.maximumWork / 8).isZero) ?? false
        }
        var index = 0
        while index < kept.required.count {
            var trial = kept
            trial.required.remove(at: index)
            if isEmpty(trial) { kept = trial } else { index += 1 }
        }
        if kept.maxRepeating != nil {
            var trial = kept
            trial.maxRepeating = nil
            if isEmpty(trial) { kept = trial }
        }
        if kept.maxSequential != nil {
            var trial = kept
            trial.maxSequential = nil
            if isEmpty(trial) { kept = trial }
        }
        let conflict = describe(kept)
        return SWCredError(
            .infeasible,
            "no password satisfies the rules: \(shape) cannot meet "
                + (conflict.isEmpty ? "the allowed characters" : conflict))
    }
}

// MARK: - Safari's adaptation (PW-5)

extension GenerationPlan {
    static let space = UInt8(ascii: " ")
    static let dash = UInt8(ascii: "-")

    /// The plan for `rules`, following PW-5.1 – PW-5.5 with swcred's Decisions.
    ///
    /// - Parameters:
    ///   - rules: the parsed rules.
    ///   - forceClassic: skip the strong style (the caller asked for `classic`).
    /// - Returns: the plan to run, and the classic plan to fall back to when the first is strong.
    /// - Throws: `infeasible` when a required set is only a space; `limitExceeded` for lengths over
    ///   ``maximumLength``.
    static func adapting(_ rules: PasswordRules, forceClassic: Bool = false) throws(SWCredError) -> (
        primary: GenerationPlan, fallback: GenerationPlan?
    ) {
        var warnings = rules.diagnostics.map { "password rules: \($0)" }

        // PW-5.2: minlength above maxlength is ignored.
        var minLength = rules.minLength ?? 0
        let maxLength = rules.maxLength
        var checkRules = rules
        if let maxLength, minLength > maxLength {
            warnings.append("minlength \(minLength) is greater than maxlength \(maxLength); minlength is ignored")
            minLength = 0
            checkRules = PasswordRules(
                rules: rules.rules.filter { if case .minLength = $0 { return false } else { return true } },
                diagnostics: [])
        }

        // PW-5.1: allowed characters, required sets, limits.
        let allowedSet = rules.allowed.asciiUnion
        let noCharacterRules = allowedSet == .asciiPrintable && rules.required.isEmpty
        let hasAllowedSet = !noCharacterRules
        var requiredSets = rules.required.map(\.asciiUnion)
        for (index, set) in requiredSets.enumerated() {
            // Decision (PW-5.1): no space in generation alphabets.
            var withoutSpace = set
            withoutSpace.remove(space)
            if withoutSpace.isEmpty {
                throw SWCredError(
                    .infeasible,
                    "required rule \(index + 1) (\(PasswordRule.required(rules.required[index]))) allows only a space, which swcred never generates"
                )
            }
        }
        // PW-5.3: defaults when the rules give no required set; drop defaults foreign to the allowed set.
        if requiredSets.isEmpty {
            let reference = hasAllowedSet ? allowedSet : ClassicFormat.defaultAlphabet
            requiredSets = [ASCIISet.lower, .upper, .digit].filter { $0.intersects(reference) }
        }
        let repeatLimit = [rules.maxConsecutive, rules.maxRepeating].compactMap { $0 }.min()
        let sequenceLimit = [rules.maxConsecutive, rules.maxSequential].compactMap { $0 }.min()
        let constraints = Constraints(required: requiredSets, maxRepeating: repeatLimit, maxSequential: sequenceLimit)

        // PW-5.5: classic.
        let dashAllowed = !hasAllowedSet || allowedSet.contains(dash)
        var alphabet = hasAllowedSet ? allowedSet : ClassicFormat.defaultAlphabet
        alphabet.remove(space)
        // Dashed needs at least one character besides the separator.
        let classicDashed =
            dashAllowed && minLength <= 15 && (maxLength.map { $0 >= 15 } ?? true)
            && !alphabet.subtracting(ASCIISet("-")).isEmpty
        var length = 12
        if classicDashed {
            alphabet.remove(dash)
        } else {
            if minLength > 15 {
                length = minLength
            } else if let maxLength, maxLength < 15 {
                length = maxLength
            }
            // Decision: never below minlength.
            length = max(length, minLength)
        }
        guard length <= maximumLength else {
            throw SWCredError(
                .limitExceeded, "the rules ask for \(length) characters; swcred generates at most \(maximumLength)")
        }
        if alphabet.isEmpty {
            throw SWCredError(
                .infeasible,
                "no password satisfies the rules: the only allowed character is a space, which swcred never generates")
        }
        var classic = GenerationPlan(
            kind: .classic(alphabet: alphabet, length: length, dashed: classicDashed), constraints: constraints,
            checkRules: checkRules, warnings: warnings)

        // PW-5.4: strong when the rules allow it.
        let sixty = ClassicFormat.defaultAlphabet
        var sixtyAndDash = sixty
        sixtyAndDash.insert(dash)
        let strongDashed = dashAllowed
        let emittable = StrongFormat.emittable(dashed: strongDashed)
        let strongOK =
            !forceClassic
            && minLength <= 20 && (maxLength.map { $0 >= 20 } ?? true)
            && (!hasAllowedSet || sixty.isSubset(of: allowedSet))
            && requiredSets.count <= 20
            && requiredSets.filter({ $0 == .digit }).count <= 1
            && requiredSets.filter({ $0 == .upper }).count <= 1
            && requiredSets.allSatisfy({ $0.intersects(sixtyAndDash) })
            && (strongDashed || minLength <= 18)
            && requiredSets.allSatisfy({ $0.intersects(emittable) })
        if strongOK {
            let strong = GenerationPlan(
                kind: .strong(dashed: strongDashed), constraints: constraints, checkRules: checkRules,
                warnings: warnings)
            classic.warnings.append("the strong style cannot meet the rules; using the classic style")
            return (strong, classic)
        }
        return (classic, nil)
    }
}
