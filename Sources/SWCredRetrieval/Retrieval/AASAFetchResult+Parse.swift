package import SWCredAssociation
import SWCredCore

extension AASAFetchResult {
    /// Parses the body with the association-file parser and folds the outcome into the report.
    ///
    /// A body that does not parse (invalid JSON, a top level that is not an object, nesting deeper
    /// than the limit) refuses the file: `NSCocoaErrorDomain` 3840, rule AD-4.9, with the parser's
    /// diagnostic as the message. A parsed file's own warnings (byte-order mark, duplicate keys,
    /// AD-3.9) are added to the report; its "signed" warning is left out when AD-3.8 was already
    /// reported from the bytes.
    ///
    /// - Parameter limits: the parser's limits (size and depth).
    /// - Returns: the parsed file, or nil when there was no body or it did not parse.
    package mutating func parse(limits: AssociationFile.Limits = .init()) -> AssociationFile? {
        guard report.accepted, let body else { return nil }
        do {
            let file = try AssociationFile.parse(body, limits: limits)
            let alreadySigned = report.diagnostics.contains { $0.rule == "AD-3.8" }
            for diagnostic in file.diagnostics {
                if file.wasSigned, alreadySigned, diagnostic.rule == "AD-3.8" { continue }
                report.diagnostics.append(
                    RetrievalDiagnostic(
                        rule: diagnostic.rule ?? "AD-3.9",
                        severity: RetrievalDiagnostic.Severity(diagnostic.severity),
                        message: diagnostic.message
                    )
                )
            }
            report.diagnostics.append(
                RetrievalDiagnostic(
                    rule: "AD-4.9",
                    severity: .passed,
                    message: "the body parsed as a JSON object\(file.wasSigned ? " (inside a signed wrapper)" : "")"
                )
            )
            return file
        } catch {
            report.refuse(
                RetrievalFailure(
                    rule: "AD-4.9",
                    domain: RetrievalFailure.cocoaErrorDomain,
                    code: 3840,
                    message: error.message
                )
            )
            return nil
        }
    }
}

extension RetrievalDiagnostic.Severity {
    /// The same severity as an association ``DiagnosticSeverity``.
    package init(_ severity: DiagnosticSeverity) {
        switch severity {
        case .error: self = .error
        case .warning: self = .warning
        case .note: self = .note
        }
    }
}

extension Diagnostic {
    /// A retrieval diagnostic as an association diagnostic, the rule id leading the message.
    package init(_ diagnostic: RetrievalDiagnostic) {
        let severity: DiagnosticSeverity =
            switch diagnostic.severity {
            case .error: .error
            case .warning: .warning
            case .note, .passed: .note
            }
        self.init(severity, "\(diagnostic.rule): \(diagnostic.message)")
    }
}
