package import SWCredAssociation
package import SWCredCore

/// An Android app as a passkey caller (asset-links.md §1.5, DAL-Q4; PasskeyDecisions.md PK-10):
/// its package, its signing certificates' SHA-256 fingerprints (the first is the one it signs
/// with now; the others are older keys of a rotation) and the RP ID its request names, once the
/// RP ID host's `assetlinks.json` was found to list it for both `handle_all_urls` and
/// `get_login_creds` (``approve(_:rpID:source:)``).
///
/// Its `clientDataJSON.origin` is ``origin``: `android:apk-key-hash:` and the base64url (no
/// padding) of the signing fingerprint's 32 octets. An RP server accepts the app's passkeys
/// when its allowed origins hold ``acceptedOrigins``, one per fingerprint.
public struct AndroidPasskeyApp: Sendable, Hashable {
    /// The application id (`com.example.app`).
    public let packageName: String
    /// The SHA-256 signing-certificate fingerprints, upper-case colon hex; the first signs.
    public let fingerprints: [String]
    /// The RP ID the app was approved for.
    public let relyingPartyID: String
    /// Why the RP ID's list approves the app: the statements that grant both relations.
    public let reason: String

    /// The origin the app's client data carries: its signing fingerprint's apk-key-hash.
    public var origin: String { acceptedOrigins.first ?? "android:apk-key-hash:" }

    /// The origins an RP server must accept for the app, one per fingerprint, the signing one first.
    public var acceptedOrigins: [String] {
        fingerprints.compactMap { AndroidAppIdentity.apkKeyHashOrigin(fingerprint: $0) }
    }

    /// Creates the caller for an app already approved for `relyingPartyID` (tests, and ``approve(_:rpID:source:)``).
    package init(app: AndroidAppIdentity, relyingPartyID: String, reason: String) {
        packageName = app.packageName
        fingerprints = app.fingerprints
        self.relyingPartyID = relyingPartyID
        self.reason = reason
    }

    /// Reads the RP ID host's `assetlinks.json` from `source` and returns the caller when it
    /// lists `app` for both relations (DAL-Q4).
    ///
    /// - Throws: `passkeyNotAssociated` (SecurityError, exit 11) when the list cannot be fetched
    ///   or read; `passkeySiteNotApproved` (SecurityError, exit 12) naming the missing relations
    ///   or the fingerprints the list has instead; `passkeyInvalidOptions` (TypeError, 50) for an
    ///   RP ID that is not a domain.
    package static func approve(
        _ app: AndroidAppIdentity, rpID: String, source: any AssetLinksListSource
    ) async throws(SWCredError) -> AndroidPasskeyApp {
        guard let canonical = RelyingPartyID.canonical(rpID) else {
            throw PasskeyFailure.invalidOptions.error("the RP ID \(rpID) is not a domain", asApp: false)
        }
        let gate = await AndroidPasskeyAssociation.evaluate(app: app, rpID: canonical, source: source)
        let prefix = "RP ID cannot be validated for \(app.packageName): "
        switch gate.outcome {
        case .approved:
            return AndroidPasskeyApp(app: app, relyingPartyID: canonical, reason: gate.reason)
        case .unreadable:
            throw PasskeyFailure.notAssociated.error(prefix + gate.reason, asApp: false)
        case .notListed:
            throw PasskeyFailure.siteNotApproved.error(prefix + gate.reason, asApp: false)
        }
    }
}
