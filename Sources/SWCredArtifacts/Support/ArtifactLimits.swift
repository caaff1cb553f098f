/// Size and count limits for signed artifacts, checked before anything is buffered or walked.
///
/// The defaults are far above what Xcode produces (a signature is a few kilobytes to a few
/// hundred; a universal binary has two or three slices) and far below what would let a hostile
/// file cost memory or time.
public struct ArtifactLimits: Sendable, Hashable {
    /// The largest Mach-O file read, in bytes (default 512 MiB).
    public var maximumFileBytes: Int = 512 << 20
    /// The most slices a universal (fat) binary may declare (default 16).
    public var maximumSlices: Int = 16
    /// The most load commands one slice may declare (default 4,096).
    public var maximumLoadCommands: Int = 4_096
    /// The largest code signature, in bytes (default 16 MiB).
    public var maximumSignatureBytes: Int = 16 << 20
    /// The most blobs a signature's SuperBlob may index (default 64).
    public var maximumBlobs: Int = 64
    /// The largest entitlements blob, XML or DER, in bytes (default 1 MiB, as for `.entitlements` files).
    public var maximumEntitlementsBytes: Int = 1 << 20
    /// The most special slots a CodeDirectory may declare (default 64; Apple uses 7 today).
    public var maximumSpecialSlots: Int = 64
    /// The largest `Info.plist`, in bytes (default 1 MiB).
    public var maximumInfoPlistBytes: Int = 1 << 20
    /// The most entries an `.ipa`'s central directory may list (default 100,000).
    public var maximumArchiveEntries: Int = 100_000
    /// The most bytes read out of one `.ipa`, every entry's declared (uncompressed) size together,
    /// checked before an entry is inflated (default 1 GiB).
    public var maximumArchiveReadBytes: Int = 1 << 30
    /// The largest ratio of a deflated entry's declared size to its compressed size (default
    /// 1,000:1; deflate cannot exceed about 1,032:1), for entries over
    /// ``compressionRatioThreshold``: a zip bomb is refused before anything is inflated.
    public var maximumCompressionRatio: Int = 1_000
    /// The declared size above which ``maximumCompressionRatio`` applies (default 1 MiB).
    public var compressionRatioThreshold: Int = 1 << 20
    /// The deepest nesting of arrays and dictionaries in entitlements (default 32).
    public var maximumDepth: Int = 32
    /// The most nested bundles (`PlugIns/*.appex`, `AppClips/*.app`) read in one app, at every
    /// level together (default 64).
    public var maximumNestedBundles: Int = 64
    /// How deep nested bundles are read: an app's extensions and App Clips (1), and theirs (2).
    public var maximumNestingDepth: Int = 2

    /// The default limits.
    public init() {}
}
