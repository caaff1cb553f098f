extension JSONReader {
    /// A key met twice in one object, under ``DuplicateKeys/report``.
    package struct DuplicateKey: Sendable, Hashable {
        /// The path of the object holding the repeat (`applinks.details[0]`; `""` at the top level).
        package var path: String
        /// The repeated key.
        package var key: String

        /// Creates a record.
        package init(path: String, key: String) {
            self.path = path
            self.key = key
        }

        /// The path of the repeated member itself (`applinks.details[0].appIDs`).
        package var memberPath: String { JSONPath.child(path, key) }
    }
}
