extension String {
    /// The text padded with spaces, or cut, to `length` UTF-16 code units: Foundation's
    /// `padding(toLength: length, withPad: " ", startingAt: 0)`, for the aligned columns of
    /// text output.
    ///
    /// ```swift
    /// "Domain:".padded(toLength: 10) + "|"   // "Domain:   |"
    /// "abcdef".padded(toLength: 3)           // "abc"
    /// ```
    ///
    /// - Parameter length: The width, in UTF-16 code units (characters, for ASCII).
    /// - Returns: The padded or cut text.
    package func padded(toLength length: Int) -> String {
        let units = utf16.count
        if units < length { return self + String(repeating: " ", count: length - units) }
        if units == length { return self }
        return String(decoding: Array(utf16.prefix(Swift.max(length, 0))), as: UTF16.self)
    }
}
