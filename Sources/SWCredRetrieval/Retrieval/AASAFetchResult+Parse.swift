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
            let alreadySigned = report.diagnostics.contains { $0.rule == .ad3_8 }
            for diagnostic in file.diagnostics {
                if file.wasSigned, alreadySigned, diagnostic.rule == .ad3_8 { continue }
                var diagnostic = diagnostic
                diagnostic.rule = diagnostic.rule ?? .ad3_9
                diagnostic.id = nil
                report.diagnostics.append(diagnostic)
            }
            report.diagnostics.append(
                .passed(
                    "the body parsed as a JSON object\(file.wasSigned ? " (inside a signed wrapper)" : "")",
                    rule: .ad4_9))
            return file
        } catch {
            report.refuse(
                RetrievalFailure(
                    rule: .ad4_9,
                    domain: RetrievalFailure.cocoaErrorDomain,
                    code: 3840,
                    message: error.message
                )
            )
            return nil
        }
    }
}

extension Diagnostic {
    /// A retrieval diagnostic as `verify` shows it beside trust diagnostics: the rule id leading
    /// the message, a passed check as a note, no lint id.
    package var leadingRule: Diagnostic {
        let severity: DiagnosticSeverity = self.severity == .passed ? .note : self.severity
        return Diagnostic(severity, rule.map { "\($0): \(message)" } ?? message)
    }
}
