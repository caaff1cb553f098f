import ArgumentParser
import FoundationEssentials
import SWCredCore

/// `swcred explain [ID]`: the rule book. With an id (`SWC031`, `AD-4.8`, `itemNotFound`), what the
/// id means, what Apple does, why, how to fix it and an example; without one, every id with its
/// title. Every id swcred prints — lint ids, rule ids in reports and messages, error codes — has
/// an entry (`RuleBook`).
struct ExplainCommand: FormatOptionsSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "explain", abstract: "Explain a lint id, a rule id or an error code.")

    @Argument(help: ArgumentHelp("The id: SWC031, AD-4.8, itemNotFound, … (omit to list every id).", valueName: "id"))
    var id: String?

    @OptionGroup var formatOptions: FormatOptions

    struct Output: Encodable {
        let rules: [RuleEntry]
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        let rules: [RuleEntry]
        if let id {
            guard let rule = RuleBook.rule(id.trimmingWhitespace()) else {
                let prefix = id.prefix(3).lowercased()
                let near = RuleBook.all.filter { $0.id.lowercased().hasPrefix(prefix) }.prefix(5).map(\.id)
                throw SWCredError(
                    .usage,
                    "no rule or error code '\(id.prefix(64))'; `swcred explain` lists them all"
                        + (near.isEmpty ? "" : " (ids that start alike: \(near.joined(separator: ", ")))"))
            }
            rules = [rule]
        } else {
            rules = RuleBook.all
        }
        console.emit(Output(rules: rules)) {
            if id == nil {
                var kind: RuleEntry.Kind?
                for rule in rules {
                    if rule.kind != kind {
                        if kind != nil { console.out("") }
                        console.out(Self.heading(rule.kind))
                        kind = rule.kind
                    }
                    console.out("  \(rule.id.padded(toLength: 24))\(rule.title)")
                }
                console.out("")
                console.out("swcred explain ID prints one entry.")
            } else if let rule = rules.first {
                console.out("\(rule.id): \(rule.title)")
                for (title, text) in [
                    (rule.platformHeading, rule.apple), ("Why", rule.why), ("How to fix it", rule.fix),
                    ("Example", rule.example),
                ] {
                    console.out("")
                    console.out(title)
                    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                        console.out("  \(line)")
                    }
                }
            }
        }
        return .success
    }

    static func heading(_ kind: RuleEntry.Kind) -> String {
        switch kind {
        case .lint: "Lint findings (swcred lint, swcred entitlements)"
        case .rule: "Retrieval and trust rules (fetch, verify, reports and messages)"
        case .error: "Error codes (the [code] of an error message, the JSON \"code\")"
        }
    }
}
