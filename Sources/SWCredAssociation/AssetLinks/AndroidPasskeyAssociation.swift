import SWCredCore

/// Whether an Android app may run passkey ceremonies for an RP ID (asset-links.md §1.5, DAL-Q4):
/// the RP ID host's `https://<rpID>/.well-known/assetlinks.json` must list the app, with one of
/// its fingerprints, for both `delegate_permission/common.handle_all_urls` and
/// `delegate_permission/common.get_login_creds`.
///
/// The list is read as Google's Digital Asset Links service reads it (the `google` verifier:
/// includes to any depth, an invalid element skipped): Google Play services, not the device's
/// App Links verifier, validates a passkey request's RP ID (DERIVED from the error Credential
/// Manager reports, `[50152] RP ID cannot be validated`, which comes from Play services). The
/// device verifier's verdict is kept beside it for the message when the two differ.
///
/// ```swift
/// let gate = await AndroidPasskeyAssociation.evaluate(app: app, rpID: "example.com", source: source)
/// gate.outcome   // .approved, .notListed or .unreadable
/// gate.reason    // the statements that grant it, or what is missing
/// ```
package struct AndroidPasskeyAssociation: Sendable, Hashable {
    /// The answer.
    package enum Outcome: Sendable, Hashable {
        /// Both relations are granted to the app.
        case approved
        /// The list reads, but does not grant one relation or both to the app (or its fingerprint).
        case notListed
        /// The list cannot be fetched or is not a statement list (no body, not JSON, too large).
        case unreadable
    }

    /// The two relations a passkey needs, in the order they are reported.
    package static let relations: [AssetLinksRelation] = [.handleAllURLs, .getLoginCreds]

    /// The answer.
    package let outcome: Outcome
    /// The site whose list was read: `https://<rpID>`.
    package let site: AssetLinksSite
    /// The relations not granted (empty when approved or unreadable).
    package let missing: [AssetLinksRelation]
    /// One sentence: why the list cannot be read, or each missing relation's reason, or the grants.
    package let reason: String

    /// Reads the RP ID host's list from `source` and checks the app for both relations.
    package static func evaluate(
        app: AndroidAppIdentity, rpID: String, source: any AssetLinksListSource
    ) async -> AndroidPasskeyAssociation {
        let site = AssetLinksSite(scheme: "https", host: rpID)
        let root = await source.statementList(for: site, verifier: .google)
        func unreadable(_ why: String) -> AndroidPasskeyAssociation {
            AndroidPasskeyAssociation(
                outcome: .unreadable, site: site, missing: [],
                reason: "\(site.statementListURL) cannot be read: \(why)")
        }
        switch root {
        case .failed(_, let message):
            return unreadable(message)
        case .body(let bytes):
            if case .failure(let failure) = AssetLinksStatementList.parseReportingRule(bytes) {
                return unreadable(failure.error.message)
            }
        }
        let google = await AssetLinksResolver(verifier: .google).resolve(root, source: .web(site), includes: source)
        var missing: [AssetLinksRelation] = []
        var reasons: [String] = []
        for relation in relations {
            let verdict = google.check(relation, app: app)
            if !verdict.linked { missing.append(relation) }
            reasons.append(verdict.reason)
        }
        if missing.isEmpty {
            return AndroidPasskeyAssociation(
                outcome: .approved, site: site, missing: [], reason: reasons.joined(separator: "; "))
        }
        let names = missing.map(\.description).joined(separator: " and ")
        let why = zip(relations, reasons).filter { missing.contains($0.0) }.map(\.1).joined(separator: "; ")
        return AndroidPasskeyAssociation(
            outcome: .notListed, site: site, missing: missing,
            reason: "\(site.statementListURL) does not grant \(names) to \(app.packageName) "
                + "(DAL-Q4: a passkey needs both relations): \(why)")
    }
}
