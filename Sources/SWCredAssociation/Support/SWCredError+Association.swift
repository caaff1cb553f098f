public import SWCredCore

extension SWCredError.Code {
    /// An apple-app-site-association file could not be parsed: invalid JSON, a top level that is
    /// not an object, too deep, or too large (exit 65). The message names Apple's error
    /// (`NSCocoaErrorDomain` 3840 for JSON, `NSURLErrorDomain` -1103 for size; AD-4.6, AD-4.9).
    public static let malformedAASA = Self("malformedAASA")
    /// An entitlements file could not be parsed: not a plist or JSON object, too large or too deep (exit 65).
    public static let malformedEntitlements = Self("malformedEntitlements")
}
