extension JSONReader {
    /// The reader's limits. Each holds whatever the input; exactly the limit is accepted.
    ///
    /// The defaults suit a small document from an untrusted source; each reader in swcred sets
    /// its own (association files: 128 KiB and depth 64; WebAuthn options: 64 KiB, depth 16, 256
    /// members, 8 KiB strings).
    package struct Limits: Sendable, Hashable {
        /// Input bytes, checked before reading. Default 1 MiB.
        package var maxBytes: Int
        /// Nesting of arrays and objects (the top-level container is depth 1). Default 64.
        package var maxDepth: Int
        /// Bytes of one string, key or value, after unescaping. Default 64 KiB.
        package var maxStringBytes: Int
        /// Members of one object or elements of one array. Default 65,536.
        package var maxMembers: Int

        /// Creates limits; every parameter has a safe default.
        package init(
            maxBytes: Int = 1 << 20, maxDepth: Int = 64, maxStringBytes: Int = 64 * 1024, maxMembers: Int = 65_536
        ) {
            self.maxBytes = maxBytes
            self.maxDepth = maxDepth
            self.maxStringBytes = maxStringBytes
            self.maxMembers = maxMembers
        }

        /// A nesting limit only, for input whose size the caller has already bounded (strings
        /// and member counts are then bounded by that size).
        package static func depthOnly(_ maxDepth: Int) -> Limits {
            Limits(maxBytes: .max, maxDepth: maxDepth, maxStringBytes: .max, maxMembers: .max)
        }
    }
}
