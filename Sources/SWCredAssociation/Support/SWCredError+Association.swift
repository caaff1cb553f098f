public import SWCredCore

extension SWCredError.Code {
    /// An apple-app-site-association file could not be parsed: invalid JSON, a top level that is
    /// not an object, too deep, or too large (exit 65). The message names Apple's error
    /// (`NSCocoaErrorDomain` 3840 for JSON, `NSURLErrorDomain` -1103 for size; AD-4.6, AD-4.9).
    public static let malformedAASA = Self(.malformedAASA)
    /// An entitlements file could not be parsed: not a plist or JSON object, too large or too deep (exit 65).
    public static let malformedEntitlements = Self(.malformedEntitlements)
    /// A fetch was refused by a retrieval rule (`http`, redirect, status, size: associated-domains.md
    /// §4). The message names the rule (`AD-4.4`, …) and the failing domain and code. Exit 69.
    public static let fetchRefused = Self(.fetchRefused)
    /// A fetch failed in the network: connection, TLS trust, timeout. The message names the rule
    /// and Apple's `NSURLErrorDomain` code (−1202 untrusted certificate, −1001 timed out, …). Exit 69.
    public static let fetchFailed = Self(.fetchFailed)
}

extension SWCredError.Code {
    /// A Digital Asset Links statement list (`assetlinks.json`) could not be read: larger than
    /// its limit, not strict JSON, too deep, or a top level that is not an array (DAL-S1,
    /// asset-links.md). Exit 65.
    public static let malformedAssetLinks = Self(.malformedAssetLinks)
    /// An Android app given as `PKG=FP[,FP…]` is not one: no `=`, a package name that is not
    /// Java package syntax, or a fingerprint that is not 32 hex octets (a SHA-1 fingerprint is
    /// named as such). Exit 64.
    public static let invalidAndroidApp = Self(.invalidAndroidApp)
}
