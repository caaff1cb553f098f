/// Which generation of Apple's Shared Web Credentials behaviour to emulate (SWC-1.1).
///
/// `legacy` (the default, SWC-1.2) is the securityd keychain query of iOS 8–15: filters are
/// honoured, the item's real server and port come back, and "nothing saved"
/// (`errSecItemNotFound`) is told apart from "user canceled" (an empty array). `current` is the
/// AuthenticationServices picker of iOS 16 and later: no checks, `fqdn` and `account` are ignored,
/// the requested domain string is echoed back, and both "nothing to offer" and "canceled" give an
/// empty array with `ASAuthorizationError` 1001.
public enum SWCProfile: String, Sendable, Hashable, Codable, CaseIterable {
    /// iOS 8–15 behaviour (default).
    case legacy
    /// iOS 16 and later behaviour.
    case current

    /// The `errSecBadReq` message when Password AutoFill is disabled (SWC-1.1).
    package var autoFillDisabledMessage: String {
        switch self {
        case .legacy:
            return "Autofill is not enabled in Safari settings"
        case .current:
            return "Password AutoFill for iCloud Keychain must be enabled in Settings > Passwords to save passwords"
        }
    }
}

/// The emulated platform (SWC-1.3, SWC-6.2).
public enum SWCPlatform: String, Sendable, Hashable, Codable, CaseIterable {
    /// iOS and iPadOS (default): every function is available.
    case ios
    /// macOS and Mac Catalyst: add fails with `errSecUnimplemented` (−4).
    case macos
    /// tvOS, watchOS: add and request fail with `errSecParam` (−50).
    case other
}

/// Whether an add of a new credential asks the user first (SWC-1.3, SWC-6.11).
public enum SWCAddConfirmation: String, Sendable, Hashable, Codable, CaseIterable {
    /// iOS 12 and later (default): an `ADD` prompt is shown.
    case prompt
    /// iOS 8–11 and Apple's "Managing shared credentials" article: a new credential is saved
    /// without asking.
    case silent
}
