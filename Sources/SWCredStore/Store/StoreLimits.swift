/// Every limit of the store (spec/store.md §9), with safe defaults.
///
/// Limits are checked before expensive work and before anything is written; a write that would
/// break one leaves the store unchanged. On input (add, update, upsert) a field that is too long is
/// `invalidParameter` and a count over the limit `limitExceeded`. On read, a file over
/// ``maxFileSize`` or with more items or records than allowed is `limitExceeded`, and a field
/// over its size is `corruptPayload` (no writer of this version produces one).
public struct StoreLimits: Sendable, Hashable, Codable {
    /// The largest keychain file, read (checked from `fstat` before reading) and written.
    /// Default 64 MiB, which is also ``fileSizeCeiling`` (store.md §9; raised from 16 MiB with the
    /// item limit: 100,000 items of the size `swcred add` writes take about 14 MB, and 100,000
    /// items with long fields reach the ceiling first).
    public var maxFileSize: Int = 64 << 20
    /// Items, negative entries included. Default 100,000 (store.md §9; raised from 20,000).
    public var maxItems: Int = 100_000
    /// Association records. Default 10,000.
    package var maxAssociationRecords: Int = 10_000
    /// `kSecAttrServer` bytes (at least 1).
    public var maxServerBytes: Int = 253
    /// `kSecAttrAccount` bytes.
    public var maxAccountBytes: Int = 512
    /// Secret bytes.
    public var maxSecretBytes: Int = 4096
    /// Label bytes.
    public var maxLabelBytes: Int = 1024
    /// Comment bytes.
    public var maxCommentBytes: Int = 1024
    /// Access-group bytes.
    public var maxAccessGroupBytes: Int = 256
    /// Path bytes.
    public var maxPathBytes: Int = 2048
    /// Security-domain bytes.
    public var maxSecurityDomainBytes: Int = 253
    /// App identifier bytes in association records.
    var maxAppIDBytes: Int = 512
    /// Host bytes in association records.
    var maxHostBytes: Int = 253
    /// Association error-message bytes.
    var maxErrorMessageBytes: Int = 1024
    /// Association error-domain bytes.
    var maxErrorDomainBytes: Int = 256
    /// Passphrase bytes (at least 1).
    public var maxPassphraseBytes: Int = 4096

    /// The file size that format version 1 never exceeds, whatever ``maxFileSize`` says.
    package static let fileSizeCeiling = 64 << 20

    /// The defaults.
    public static let `default` = StoreLimits()

    /// Creates the default limits.
    public init() {}
}
