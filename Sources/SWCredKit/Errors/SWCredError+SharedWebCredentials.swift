public import FoundationEssentials
public import SWCredCore

// MARK: - Codes raised by the Shared Web Credentials layer (spec/shared-web-credentials.md SWC-2.2)

extension SWCredError.Code {
    /// `errSecUnimplemented` (−4): add on platform `macos` (SWC-6.2). The CLI has no platform
    /// switch, so the exit status is the generic 1.
    public static let unimplemented = Self(.unimplemented, status: -4)
    /// `errSecBadReq` (−909): Password AutoFill is disabled (SWC-6.3 step 1), exit 14.
    public static let autoFillDisabled = Self(.autoFillDisabled, status: -909)
    /// `errSecMissingEntitlement` (−34018): no app identifier, or the domain is not in the
    /// `webcredentials` entitlement (SWC-6.5), exit 11.
    public static let missingEntitlement = Self(.missingEntitlement, status: -34018)
    /// `errSecAuthFailed` (−25293): the site has not approved the app (SWC-6.6), exit 12.
    ///
    /// The store's `wrongKey` carries the same OSStatus; store failures never reach a
    /// completion with it (SWC-2.2 Decision), so this code alone means "site not approved".
    public static let siteNotApproved = Self(.siteNotApproved, status: -25293)
    /// `errSecInternal` (−26276): any other store or internal failure; the store error is the
    /// underlying error.
    public static let secInternal = Self(.secInternal, status: -26276)
    /// `ASAuthorizationError.canceled` (1001) in `com.apple.AuthenticationServices.AuthorizationError`:
    /// the `current` picker was canceled or had nothing to offer (SWC-7.4), exit 13.
    public static let canceled = Self(
        .canceled, status: 1001, domain: SWCredError.authorizationErrorDomain)
}

// MARK: - NSError bridging (SWC-2.1)

/// `SWCredError` bridges to `NSError` (`error as NSError`) with Apple's domain and code:
/// `NSOSStatusErrorDomain` and the OSStatus for OSStatus codes,
/// `com.apple.AuthenticationServices.AuthorizationError` 1001 for a canceled picker, and the
/// message as the localized description. Codes without an Apple status bridge to the domain
/// `swcred` with code 1 (``SWCredError/swcredBridgedCode``) and the code's name under
/// ``SWCredError/codeNameKey`` in the user info.
///
/// `CustomNSError` is not used: its domain is a static property, one per type, while swcred's
/// one error type carries two Apple domains. The bridge reads the per-value `_domain` and `_code`
/// requirements of `Error` instead (witnessed in SWCredCore, where the conformance is declared;
/// on Linux and Darwin alike), and `LocalizedError` supplies the description. SWCredSecurity's
/// `nsError` also carries the underlying error (`NSUnderlyingErrorKey`); it lives there because
/// `NSError` is not in `FoundationEssentials`, which is all the `swcred` command links.
extension SWCredError: LocalizedError {
    /// The domain swcred-only codes bridge to.
    public static let swcredErrorDomain = "swcred"

    /// The error's domain as it bridges to `NSError`.
    public var errorDomain: String { code.domain ?? Self.swcredErrorDomain }

    /// The error's code as it bridges to `NSError`: the Apple status, or
    /// ``SWCredError/swcredBridgedCode`` for a swcred-only code.
    public var errorCode: Int { code.status ?? Self.swcredBridgedCode }

    /// The user-info key of SWCredSecurity's `nsError` that holds ``Code/name`` (`"SWCredErrorCode"`).
    public static let codeNameKey = "SWCredErrorCode"

    public var errorDescription: String? { message }
}
