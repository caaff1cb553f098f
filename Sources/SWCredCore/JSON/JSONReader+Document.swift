extension JSONReader {
    /// A document read: the value and, under ``DuplicateKeys/report``, the repeated keys in the
    /// order their second (or later) occurrence ended.
    package struct Document: Sendable, Hashable {
        /// The top-level value.
        package var value: JSONValue
        /// The repeated keys (always empty under ``DuplicateKeys/refuse``).
        package var duplicateKeys: [DuplicateKey]
    }
}
