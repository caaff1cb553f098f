/// A reason a password does not meet a rule (PW-4.10).
public struct PasswordRuleViolation: Sendable, Hashable, CustomStringConvertible {
    /// How serious the finding is.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// The password breaks the rule.
        case error
        /// The password may break the rule, depending on how the site reads it.
        case warning
    }

    /// Error or warning.
    public let severity: Severity
    /// The rule's property name (`minlength`, `required`, …).
    public let rule: String
    /// A sentence for a person; never contains the password.
    public let message: String

    /// `severity: message`.
    public var description: String { "\(severity.rawValue): \(message)" }
}

extension PasswordRules {
    /// Checks `password` against the rules (PW-4.10). Messages never quote the password.
    ///
    /// Length counts Unicode scalars; every character must be allowed (`unicode` allows anything);
    /// each `required` list must be hit; the run limits of PW-4.9 must hold. **Decision:** for
    /// `max-consecutive`, an identical run over the limit is an error and an ascending or
    /// descending run over it a warning, since the property's meaning was ambiguous.
    /// - Returns: the violations; empty when the password is valid.
    public func violations(of password: String) -> [PasswordRuleViolation] {
        var out: [PasswordRuleViolation] = []
        func error(_ rule: String, _ message: String) {
            out.append(.init(severity: .error, rule: rule, message: message))
        }
        let scalars = password.unicodeScalars.map(\.value)
        if let min = minLength, scalars.count < min {
            error("minlength", "shorter than minlength \(min) (\(scalars.count) characters)")
        }
        if let max = maxLength, scalars.count > max {
            error("maxlength", "longer than maxlength \(max) (\(scalars.count) characters)")
        }
        let allowedClasses = allowed
        if !allowedClasses.containsUnicode {
            let set = allowedClasses.asciiUnion
            let bad = scalars.filter { $0 >= 128 || !set.contains(UInt8($0)) }.count
            if bad > 0 { error("allowed", "\(bad) character(s) not in the allowed set") }
        }
        for (index, classes) in required.enumerated() {
            let hit: Bool
            if classes.containsUnicode {
                hit = !scalars.isEmpty
            } else {
                let set = classes.asciiUnion
                hit = scalars.contains { $0 < 128 && set.contains(UInt8($0)) }
            }
            if !hit {
                let text = PasswordRule.required(classes).description
                error("required", "no character from required rule \(index + 1) (\(text))")
            }
        }
        let runs = RunLengths(scalars)
        if let limit = maxRepeating, runs.longestRepeat > limit {
            error("max-repeating", "a run of \(runs.longestRepeat) identical characters exceeds max-repeating \(limit)")
        }
        if let limit = maxSequential, runs.longestSequence > limit {
            error(
                "max-sequential",
                "a sequential run of \(runs.longestSequence) characters exceeds max-sequential \(limit)")
        }
        if let limit = maxConsecutive {
            if runs.longestRepeat > limit {
                error(
                    "max-consecutive",
                    "a run of \(runs.longestRepeat) identical characters exceeds max-consecutive \(limit)")
            }
            if runs.longestSequence > limit {
                out.append(
                    .init(
                        severity: .warning, rule: "max-consecutive",
                        message:
                            "a sequential run of \(runs.longestSequence) characters exceeds max-consecutive \(limit) if the site counts sequences"
                    ))
            }
        }
        return out
    }

    /// Whether `password` has no error-level violation.
    public func isSatisfied(by password: String) -> Bool {
        !violations(of: password).contains { $0.severity == .error }
    }
}
