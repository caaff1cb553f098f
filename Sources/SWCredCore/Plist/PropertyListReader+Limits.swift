extension PropertyListReader {
    /// The reader's limits. Each holds whatever the input; exactly the limit is accepted.
    ///
    /// The defaults suit a small plist from an untrusted source (an entitlements file, an
    /// `Info.plist`, a provisioning profile's payload); entitlements read under 1 MiB and depth 32.
    package struct Limits: Sendable, Hashable {
        /// Input bytes, checked before reading. Default 1 MiB.
        package var maxBytes: Int
        /// Nesting of arrays and dictionaries (the top-level container is depth 1). Default 64.
        package var maxDepth: Int
        /// Values in the tree read, every container, key-less value and leaf counted; an object a
        /// binary plist references from several places counts each time, so a small file cannot
        /// expand into a huge tree. Default 100,000.
        package var maxValues: Int
        /// Entries of one dictionary or elements of one array. Default 65,536.
        package var maxElements: Int
        /// UTF-8 bytes of one string or key, after entities are expanded. Default 64 KiB.
        package var maxStringBytes: Int

        /// Creates limits; every parameter has a safe default.
        package init(
            maxBytes: Int = 1 << 20, maxDepth: Int = 64, maxValues: Int = 100_000, maxElements: Int = 65_536,
            maxStringBytes: Int = 64 * 1024
        ) {
            self.maxBytes = maxBytes
            self.maxDepth = maxDepth
            self.maxValues = maxValues
            self.maxElements = maxElements
            self.maxStringBytes = maxStringBytes
        }
    }
}
