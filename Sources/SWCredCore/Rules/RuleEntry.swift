/// One entry of swcred's rule book: an id a user can meet in `swcred lint`, in a retrieval or
/// trust report, or as an error code, with what Apple does and how to fix it.
///
/// Every id swcred prints has exactly one entry in ``RuleBook``. `swcred explain ID`, the lint
/// output, error messages and the DocC catalogs all read this one table, so they cannot disagree.
///
/// ```swift
/// if let rule = RuleBook.rule("SWC031") {
///     print(rule.title)  // "A component is not an object"
/// }
/// ```
package struct RuleEntry: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Where a user meets the id.
    package enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A finding of `swcred lint` or `swcred entitlements` (`SWC001`…`SWC119`; `SWC2nn` for
        /// assetlinks.json files), or of `swcred verify --app` on a signed app (`APP-1`…`APP-14`).
        case lint
        /// A rule of the associated-domains specification cited in retrieval and trust reports
        /// and in error messages (`AD-4.8`).
        case rule
        /// An error code: the JSON `"code"` of an error and the exit status that goes with it
        /// (`itemNotFound`).
        case error
    }

    /// The id exactly as printed: `SWC031`, `AD-4.8`, `itemNotFound`.
    package let id: String
    /// Where the id is met.
    package let kind: Kind
    /// One line: what the id is about.
    package let title: String
    /// What Apple's platform does in this situation.
    package let apple: String
    /// Why it does so, or why the rule exists.
    package let why: String
    /// How to fix the input or the setup.
    package let fix: String
    /// A short example of input that meets the rule, or of a command that shows it.
    package let example: String

    /// Creates an entry. Entries are declared only in ``RuleBook``.
    package init(
        _ id: String, _ kind: Kind, title: String, apple: String, why: String, fix: String, example: String
    ) {
        self.id = id
        self.kind = kind
        self.title = title
        self.apple = apple
        self.why = why
        self.fix = fix
        self.example = example
    }

    /// Creates the entry of a specification rule (kind ``Kind/rule``, id ``RuleID/rawValue``).
    package init(_ rule: RuleID, title: String, apple: String, why: String, fix: String, example: String) {
        self.init(rule.rawValue, .rule, title: title, apple: apple, why: why, fix: fix, example: example)
    }

    /// The heading of ``apple`` for a reader: what Apple does, or for an asset-links rule
    /// (`DAL-…`) and its lint id (`SWC2nn`) what Google's API and an Android device do.
    package var platformHeading: String {
        if id.hasPrefix("ROR-") || ["SWC24", "SWC25", "SWC26"].contains(where: id.hasPrefix) {
            return "What browsers do"
        }
        return id.hasPrefix("DAL-") || id.hasPrefix("SWC2") ? "What Google and Android do" : "What Apple does"
    }

    /// `ID  title`.
    package var description: String { "\(id)  \(title)" }
}

/// The table of every id swcred can print (see ``RuleEntry``).
package enum RuleBook {
    /// Every entry, lint ids first, then specification rules, then error codes, each group in id order.
    package static let all: [RuleEntry] =
        signedAppRules + lintRules + realFileLintRules + assetLinksLintRules + relatedOriginsLintRules
        + specificationRules + assetLinksRules + relatedOriginsRules + errorCodes

    private static let byID: [String: RuleEntry] = {
        var table: [String: RuleEntry] = [:]
        for rule in all { table[rule.id.lowercased()] = rule }
        return table
    }()

    /// The entry for `id`, compared without regard to case (`swc031` finds `SWC031`); `nil` when
    /// swcred never prints that id.
    package static func rule(_ id: String) -> RuleEntry? { byID[id.lowercased()] }

    /// The ids of the `AD-x.y`, `SWC-x.y`, `PW-x.y`, `DAL-Xn`, `ROR-Xn` and `SWCnnn` form found in `text`, in order
    /// of appearance, each once. Used to check that every id a message cites has an entry.
    package static func citedIDs(in text: String) -> [String] {
        var found: [String] = []
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func isUpper(_ s: Unicode.Scalar) -> Bool { s >= "A" && s <= "Z" }
        func isDigit(_ s: Unicode.Scalar) -> Bool { s >= "0" && s <= "9" }
        while index < scalars.count {
            // An id starts at a word boundary with upper-case letters.
            guard isUpper(scalars[index]), index == 0 || !(isUpper(scalars[index - 1]) || isDigit(scalars[index - 1]))
            else {
                index += 1
                continue
            }
            var end = index
            while end < scalars.count, isUpper(scalars[end]) { end += 1 }
            let prefix = String(String.UnicodeScalarView(scalars[index..<end]))
            var candidate: String?
            if prefix == "SWC", end < scalars.count, isDigit(scalars[end]) {
                // SWCnnn (three digits, not followed by another digit).
                var digitsEnd = end
                while digitsEnd < scalars.count, isDigit(scalars[digitsEnd]) { digitsEnd += 1 }
                if digitsEnd - end == 3 { candidate = String(String.UnicodeScalarView(scalars[index..<digitsEnd])) }
                end = digitsEnd
            } else if prefix == "DAL" || prefix == "ROR", end + 2 < scalars.count, scalars[end] == "-",
                isUpper(scalars[end + 1]), isDigit(scalars[end + 2])
            {
                // DAL-S3, ROR-L1: a letter, then digits.
                var cursor = end + 2
                while cursor < scalars.count, isDigit(scalars[cursor]) { cursor += 1 }
                candidate = String(String.UnicodeScalarView(scalars[index..<cursor]))
                end = cursor
            } else if ["AD", "SWC", "PW", "ST"].contains(prefix), end + 4 <= scalars.count, scalars[end] == "-" {
                // AD-n.m: digits, a dot, digits.
                var cursor = end + 1
                let majorStart = cursor
                while cursor < scalars.count, isDigit(scalars[cursor]) { cursor += 1 }
                if cursor > majorStart, cursor + 1 < scalars.count, scalars[cursor] == ".", isDigit(scalars[cursor + 1])
                {
                    cursor += 1
                    while cursor < scalars.count, isDigit(scalars[cursor]) { cursor += 1 }
                    candidate = String(String.UnicodeScalarView(scalars[index..<cursor]))
                }
                end = cursor
            }
            if let candidate, !found.contains(candidate) { found.append(candidate) }
            index = max(end, index + 1)
        }
        return found
    }
}
