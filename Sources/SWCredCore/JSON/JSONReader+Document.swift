extension JSONReader {
    /// A document read: the value and, under ``DuplicateKeys/report``, the repeated keys in the
    /// order their second (or later) occurrence ended.
    public struct Document: Sendable, Hashable {
        /// The top-level value.
        public var value: JSONValue
        /// The repeated keys (always empty under ``DuplicateKeys/refuse``).
        public var duplicateKeys: [DuplicateKey]
    }
}
