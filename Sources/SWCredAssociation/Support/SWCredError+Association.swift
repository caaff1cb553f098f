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
