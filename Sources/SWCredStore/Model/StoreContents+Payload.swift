package import SWCredCore

extension StoreContents {
    /// Decodes a payload plaintext (the canonical binary encoding of ``StoreFormat``).
    ///
    /// The store calls this after the AEAD tag verified; it is public for fuzzing, tests and
    /// in-memory keychains that persist a snapshot. Never traps on any input.
    /// - Throws: `corruptPayload` (not a canonical encoding, a field over its limit),
    ///   `unsupportedFormat` (a newer schema), `limitExceeded` (too many items or records).
    package init(payload: [UInt8], limits: StoreLimits = .default) throws(SWCredError) {
        self = try PayloadCodec.decode(payload, limits: limits)
    }

    /// The canonical payload encoding of these contents.
    /// - Warning: the bytes are plaintext, passwords included. Wipe them with
    ///   `Sodium.memzero(_:)` when done and never write them to disk.
    package func encodedPayload() -> [UInt8] {
        PayloadCodec.encode(self)
    }
}
