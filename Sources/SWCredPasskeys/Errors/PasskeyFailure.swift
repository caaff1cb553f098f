public import SWCredCore

/// The failures of passkey registration and assertion, each with its WebAuthn `DOMException` name
/// and, when the caller is an app, the `ASAuthorizationError` code Apple reports
/// (Docs: PasskeyDecisions.md, PK-3).
///
/// An app's errors carry `status`/`domain` = the `ASAuthorizationError` code and
/// `com.apple.AuthenticationServices.AuthorizationError`; a browser's carry none. Every message
/// starts with the WebAuthn name.
public enum PasskeyFailure: String, Sendable, CaseIterable {
    /// The RP ID is not covered by an active `webcredentials` entry (exit 11).
    case notAssociated
    /// The entry exists but the domain's association record is not approved (exit 12).
    case siteNotApproved
    /// A browser origin may not use the RP ID (exit 50).
    case originNotAllowed
    /// The user canceled (exit 13).
    case canceled
    /// No passkey for the assertion (exit 44).
    case noCredentials
    /// A passkey in `excludeCredentials` is already here (exit 45).
    case excludedCredential
    /// No supported algorithm in `pubKeyCredParams` (exit 50).
    case notSupported
    /// An option is missing, of the wrong type or out of range (exit 50).
    case invalidOptions

    /// The WebAuthn error name.
    public var webAuthnName: String {
        switch self {
        case .notAssociated, .siteNotApproved, .originNotAllowed: "SecurityError"
        case .canceled, .noCredentials: "NotAllowedError"
        case .excludedCredential: "InvalidStateError"
        case .notSupported: "NotSupportedError"
        case .invalidOptions: "TypeError"
        }
    }

    /// The `ASAuthorizationError.Code` an app receives, when one applies.
    public var authorizationErrorCode: Int? {
        switch self {
        case .notAssociated, .siteNotApproved, .notSupported: 1004  // .failed
        case .canceled, .noCredentials: 1001  // .canceled
        case .excludedCredential: 1006  // .matchedExcludedCredential (iOS 18)
        case .originNotAllowed, .invalidOptions: nil
        }
    }

    /// The JSON `"code"` string.
    package var codeName: String { codeKind.rawValue }

    /// The code's name in the closed set.
    package var codeKind: SWCredError.Code.Name {
        switch self {
        case .notAssociated: .passkeyNotAssociated
        case .siteNotApproved: .passkeySiteNotApproved
        case .originNotAllowed: .passkeyOriginNotAllowed
        case .canceled: .passkeyCanceled
        case .noCredentials: .passkeyNoCredentials
        case .excludedCredential: .passkeyExcludedCredential
        case .notSupported: .passkeyNotSupported
        case .invalidOptions: .passkeyInvalidOptions
        }
    }

    /// The error code for this failure, as an app (`asApp`) or as a browser.
    package func code(asApp: Bool) -> SWCredError.Code {
        (asApp ? Self.appCodes : Self.browserCodes)[self] ?? SWCredError.Code(codeKind)
    }

    /// Each failure's code as a browser reports it: no Apple status.
    private static let browserCodes: [PasskeyFailure: SWCredError.Code] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0, SWCredError.Code($0.codeKind)) })

    /// Each failure's code as an app receives it: the `ASAuthorizationError` code, when one applies.
    private static let appCodes: [PasskeyFailure: SWCredError.Code] = Dictionary(
        uniqueKeysWithValues: allCases.map { failure in
            let status = failure.authorizationErrorCode
            return (failure, SWCredError.Code(
                failure.codeKind, status: status, domain: status == nil ? nil : SWCredError.authorizationErrorDomain))
        })

    /// An error for this failure; the message is prefixed with the WebAuthn name.
    package func error(_ message: String, asApp: Bool, file: String = #fileID, line: UInt = #line) -> SWCredError {
        SWCredError(code(asApp: asApp), "\(webAuthnName): \(message)", file: file, line: line)
    }

    /// The failure of an error, when it is a passkey failure.
    public init?(_ error: SWCredError) {
        guard let match = Self.allCases.first(where: { $0.codeKind == error.code.kind }) else { return nil }
        self = match
    }
}
