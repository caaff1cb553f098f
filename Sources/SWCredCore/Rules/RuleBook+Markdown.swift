/// The rule book as a DocC article, so the documentation reads the same table as
/// `swcred explain` and `swcred lint`. `Sources/SWCredCore/Docs.docc/RuleBook.md` is this
/// text; a test fails when the two differ (`SWCRED_UPDATE_DOCS=1` rewrites the file).
extension RuleBook {
    /// The DocC article listing every entry.
    package static func markdownArticle() -> String {
        var text = """
            # Rule book

            Every id swcred prints, with what Apple does, why, and how to fix it.

            ## Overview

            Lint findings (`SWC001`…), the specification rules cited in retrieval and trust
            reports and in error messages (`AD-4.8`), and the error codes of ``SWCredError``
            (`itemNotFound`) each have one entry here. `swcred explain ID` prints the same entry;
            `swcred explain` lists them all. This article is generated from `RuleBook.all`.

            """
        var kind: RuleEntry.Kind?
        for rule in all {
            if rule.kind != kind {
                kind = rule.kind
                switch rule.kind {
                case .lint: text += "\n## Lint findings\n"
                case .rule: text += "\n## Retrieval and trust rules\n"
                case .error: text += "\n## Error codes\n"
                }
            }
            text += "\n### \(rule.id): \(rule.title)\n\n"
            text += "**\(rule.platformHeading).** \(rule.apple)\n\n"
            text += "**Why.** \(rule.why)\n\n"
            text += "**How to fix it.** \(rule.fix)\n\n"
            text += "```\n\(rule.example)\n```\n"
        }
        return text
    }
}
