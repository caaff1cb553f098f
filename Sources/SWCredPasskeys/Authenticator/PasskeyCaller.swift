public import SWCredKit
public import SWCredCore

/// Who asks for a passkey: an app (checked against its `webcredentials` association) or a web page
/// (checked against its origin).
public enum PasskeyCaller: Sendable, Hashable {
    /// An app with its entitlements, on a device with these settings (mode gating, AD-2.6).
    case app(SWCApp, device: SWCDeviceSettings)
    /// A browser page at this origin.
    case browser(RelyingPartyID.Origin)

    /// Whether errors carry `ASAuthorizationError` codes.
    public var isApp: Bool { if case .app = self { true } else { false } }

    /// The name the system sheet shows: the app's display name, or the origin's host.
    public var displayName: String {
        switch self {
        case .app(let app, _): app.displayName
        case .browser(let origin): origin.host
        }
    }
}

/// What the system sheet shows the user.
public struct PasskeyPrompt: Sendable, Hashable {
    /// The sheet.
    public enum Kind: String, Sendable, Hashable {
        /// "Save a passkey for <user> on <rpID>?"
        case create
        /// "Sign in with your passkey?" with the accounts to choose from.
        case signIn
    }

    /// The sheet.
    public var kind: Kind
    /// The relying party.
    public var rpID: String
    /// The caller's name (app display name or origin host).
    public var caller: String
    /// The account the passkey is for (``Kind/create``) or the accounts offered (``Kind/signIn``), in order.
    public var userNames: [String]
}

/// The simulated user's answer.
public enum PasskeyDecision: Sendable, Hashable {
    /// Continue (create) or use the first account (sign in).
    case allow
    /// Use the account at this index of ``PasskeyPrompt/userNames``.
    case choose(Int)
    /// Cancel the sheet.
    case cancel
}

/// Answers system sheets; called synchronously, inside the store transaction.
public typealias PasskeyResponder = @Sendable (PasskeyPrompt) -> PasskeyDecision
