import SWCredCore

/// Validates a Digital Asset Links statement list (`assetlinks.json`) and reports every DAL-S
/// rule it breaks, and the lint-relevant DAL-F, DAL-I and DAL-Q ones, as lint findings: the id
/// is the rule's lint id (`SWC203`, ``RuleID/lintID``) and `rule` the rule (`DAL-S3`)
/// (`swcred lint --kind assetlinks`, asset-links.md §1.8).
///
/// The linter never throws: a body that does not parse gives one error finding. Where Google's
/// API and an Android device read an element differently, the finding says both (a lone
/// trailing `/` on a site: a warning; a malformed element: an error and a DAL-S7 warning that a
/// device may fail the whole list on it).
///
/// ```swift
/// let findings = AssetLinksLinter().lint(bytes)
/// findings.first?.rule  // .dalS6
/// ```
package struct AssetLinksLinter: Sendable {
    /// Limits used for parsing.
    package var limits: AssetLinksStatementList.Limits

    /// Creates a linter.
    package init(limits: AssetLinksStatementList.Limits = .init()) { self.limits = limits }

    /// What makes two statements the same, for DAL-S9 (a set keeps 10,000 elements linear).
    struct StatementKey: Hashable {
        var relations: [AssetLinksRelation]
        var target: AssetLinksTarget
    }

    typealias Collector = RuleFindingCollector

    /// Whether `bytes` looks like a statement list rather than an AASA file: a JSON array whose
    /// first object element has `relation`, `target` or `include` (`swcred lint` detects the kind
    /// by content). Reads at most the first 1 MiB.
    package static func looksLikeStatementList(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first == UInt8(ascii: "[")
        else { return false }
        guard let document = try? JSONReader(limits: .init(maxBytes: 1 << 20, maxDepth: 16)).read(bytes),
            let elements = document.value.arrayValue
        else {
            // Not JSON: an array that mentions the keys is still meant as a statement list.
            let text = String(decoding: bytes.prefix(4_096), as: UTF8.self)
            return text.contains("\"relation\"") || text.contains("\"include\"")
        }
        return elements.isEmpty
            || elements.contains { element in
                guard let object = element.objectValue else { return false }
                return object["relation"] != nil || object["target"] != nil || object["include"] != nil
            }
    }

    /// Lints a statement list as served.
    package func lint(_ bytes: [UInt8]) -> [LintFinding] {
        var c = Collector()
        if bytes.isEmpty {
            c.add(.dalS1, .error, "", "the file is empty", "serve a JSON array of statements")
            return c.findings
        }
        let list: AssetLinksStatementList
        switch AssetLinksStatementList.parseReportingRule(bytes, limits: limits) {
        case .success(let parsed):
            list = parsed
        case .failure(let failure):
            let help: String
            switch failure.rule {
            case .dalF3: help = "keep the file under 1 MiB: an Android device reads nothing larger"
            case .dalF5:
                help =
                    "serve the JSON file at /.well-known/assetlinks.json; exclude /.well-known/ from the "
                    + "single-page app's catch-all rewrite"
            default: help = "serve strict JSON (no comments, trailing commas or byte-order mark): [{…}, …]"
            }
            c.add(failure.rule, .error, "", failure.error.message, help)
            return c.findings
        }
        for duplicate in list.duplicateKeys {
            c.add(
                .dalS9, .warning, duplicate.memberPath,
                "key '\(duplicate.key)' appears more than once; readers differ in which one they keep",
                "keep one copy of the key")
        }
        if list.elements.isEmpty {
            c.add(
                .dalS1, .error, "", "No statements were found: the list is empty; Google's API reports an error",
                "list at least one statement, or remove the file")
        }
        var seen: Set<StatementKey> = []
        for element in list.elements {
            lintElement(element, json: list.json[element.index], seen: &seen, into: &c)
        }
        return c.findings
    }
}
