extension StringProtocol {
    /// The text without leading and trailing spaces and tabs: Foundation's
    /// `trimmingCharacters(in: .whitespaces)`, whose set is Unicode's space separators (`Zs`,
    /// such as U+0020, U+00A0, U+3000), U+0009 and U+200B. Line breaks are kept.
    package func trimmingWhitespace() -> String {
        trimming(where: \.isFoundationWhitespace)
    }

    /// The text without leading and trailing white space and line breaks: Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, whose set adds U+000A–U+000D, U+0085,
    /// U+2028 and U+2029 to ``trimmingWhitespace()``'s.
    package func trimmingWhitespaceAndNewlines() -> String {
        trimming { $0.isFoundationWhitespace || $0.isFoundationNewline }
    }

    /// Trims Unicode scalars (not characters, as Foundation does: a combining mark after a
    /// trimmed space stays).
    private func trimming(where trimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !trimmed($0) }) else { return "" }
        guard let last = scalars.lastIndex(where: { !trimmed($0) }) else { return "" }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars[first...last])
        return String(kept)
    }
}

extension Unicode.Scalar {
    /// In Foundation's `CharacterSet.whitespaces`: general category `Zs`, a tab, or U+200B
    /// ZERO WIDTH SPACE (`Zs` in the Unicode data Foundation's set was built from).
    fileprivate var isFoundationWhitespace: Bool {
        value == 0x09 || value == 0x200B || properties.generalCategory == .spaceSeparator
    }

    /// In `CharacterSet.newlines`: U+000A–U+000D, U+0085, U+2028, U+2029.
    fileprivate var isFoundationNewline: Bool {
        (0x0A...0x0D).contains(value) || value == 0x85 || value == 0x2028 || value == 0x2029
    }
}
