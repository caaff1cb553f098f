/// The verdict on one (host, Android app, relation): an `"platform":"android"` row of
/// `swcred verify`'s `associations` (cli.md, "Android apps and related origins"; DAL-Q1).
///
/// ``trusted`` and ``reason`` are the Android device's verdict; ``verifiers`` holds both
/// verifiers' verdicts, which differ where Google's Digital Asset Links API and a device read the
/// same file differently (a trailing-slash site, include depth, one malformed element).
package struct AndroidAssociationVerdict: Sendable, Hashable, Encodable {
    /// One verifier's verdict: `{"trusted","reason"}`.
    package struct VerifierVerdict: Sendable, Hashable, Encodable {
        /// Whether the relation holds for this verifier.
        package var trusted: Bool
        /// Why, in one sentence.
        package var reason: String

        /// The verdict of ``AssetLinksResolution/check(_:app:)``.
        package init(_ verdict: AssetLinksVerdict) {
            trusted = verdict.linked
            reason = verdict.reason
        }
    }

    /// Both verifiers' verdicts.
    package struct Verifiers: Sendable, Hashable, Encodable {
        /// Google's Digital Asset Links API (`assetlinks:check`).
        package var google: VerifierVerdict
        /// An Android 12+ device's verifier.
        package var android: VerifierVerdict

        /// Whether the two verifiers answer differently.
        package var differ: Bool { google.trusted != android.trusted }
    }

    /// The app's package name (`"app"`).
    package var app: String
    /// The app's SHA-256 signing fingerprints, as given.
    package var fingerprints: [String]
    /// The host (with `:port` for a non-default port) whose `assetlinks.json` was read.
    package var host: String
    /// The site the file was read from: `https://<host>/.well-known/assetlinks.json`.
    package var url: String
    /// `handle_all_urls` (App Links) or `get_login_creds` (password sharing).
    package var relation: String
    /// The kind of source consulted.
    package var source: AssociationSourceKind
    /// The Android device's verdict.
    package var trusted: Bool
    /// The Android device's reason.
    package var reason: String
    /// Each verifier's verdict.
    package var verifiers: Verifiers

    /// Creates the row from the two verdicts on `relation` (google's and android's).
    package init(
        app: AndroidAppIdentity, site: AssetLinksSite, relation: AssetLinksRelation, source: AssociationSourceKind,
        google: AssetLinksVerdict, android: AssetLinksVerdict
    ) {
        self.app = app.packageName
        fingerprints = app.fingerprints
        host = site.authority
        url = site.statementListURL
        self.relation = relation.shortName
        self.source = source
        trusted = android.linked
        reason = android.reason
        verifiers = Verifiers(google: VerifierVerdict(google), android: VerifierVerdict(android))
    }
}
