public import SWCredKit
public import SWCredCore

/// Who asks for a passkey: an app (checked against its `webcredentials` association), a web page
/// (checked against its origin), or an Android app (approved by the RP ID's `assetlinks.json`).
public enum PasskeyCaller: Sendable, Hashable {
    /// An app with its entitlements, on a device with these settings (mode gating, AD-2.6).
    case app(SWCApp, device: SWCDeviceSettings)
    /// A browser page at this origin.
    case browser(RelyingPartyID.Origin)
    /// A browser page at this origin that read the RP ID's `/.well-known/webauthn`: an RP ID
    /// that is not the origin's host or a registrable suffix of it is allowed when the file lists
    /// the origin (WebAuthn related origins, ROR-Q1).
    case relatedOrigin(RelyingPartyID.Origin, RelatedOriginsFile)
    /// An Android app whose RP ID's `assetlinks.json` lists it for both relations (DAL-Q4).
    case androidApp(AndroidPasskeyApp)

    /// Whether errors carry `ASAuthorizationError` codes (an Apple app's; an Android app's carry none).
    public var isApp: Bool { if case .app = self { true } else { false } }

    /// The name the system sheet shows: the app's display name, or the origin's host.
    public var displayName: String {
        switch self {
        case .app(let app, _): app.displayName
        case .browser(let origin), .relatedOrigin(let origin, _): origin.host
        case .androidApp(let app): app.packageName
        }
    }
}

/// The passkey sheet: the Kit's prompt, of kind `createPasskey` or `signInWithPasskey`.
@available(*, deprecated, renamed: "SWCPrompt")
public typealias PasskeyPrompt = SWCPrompt

/// The answer to a passkey sheet: the Kit's prompt answer (`allow`, `choose`, `cancel`).
@available(*, deprecated, renamed: "SWCPromptAnswer")
public typealias PasskeyDecision = SWCPromptAnswer
