import SWCredCore

/// The findings of a linter whose specification names its rules (`assetlinks.json`: DAL-*,
/// `/.well-known/webauthn`: ROR-*): each finding's id is the rule's lint id (`SWC2nn`), or the rule
/// id itself where it has none, and it carries the rule (cli.md: findings keep the lint shape and
/// add `"rule"`). One home for ``AssetLinksLinter`` and ``RelatedOriginsLinter``.
struct RuleFindingCollector {
    var findings: [LintFinding] = []

    mutating func add(
        _ rule: RuleID, _ severity: DiagnosticSeverity, _ path: String, _ message: String, _ help: String
    ) {
        findings.append(
            LintFinding(
                id: rule.lintID ?? rule.rawValue, severity: severity, path: path, message: message, help: help,
                rule: rule))
    }
}
