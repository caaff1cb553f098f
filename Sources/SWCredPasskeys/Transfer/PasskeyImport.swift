package import FoundationEssentials
package import SWCredCore
package import SWCredStore

/// `passkey import`'s work inside the store transaction (cli.md "Browser tests"): every RP ID is
/// checked under `register`'s association rules before any passkey is written, then each
/// credential is imported (`StoreContents.importPasskey`: a stale duplicate never rolls a count
/// back). A failure throws, and the transaction writes nothing.
package enum PasskeyImport {
    /// The summary counts: `{"from","passkeys","added","updated","unchanged"}` (the console adds `schema`).
    package struct Summary: Sendable, Hashable, Encodable {
        /// The document format.
        package var from: String
        /// The credentials in the document.
        package var passkeys: Int
        /// New credential IDs.
        package var added = 0
        /// Stored passkeys that took the document's key, user handle, count or names.
        package var updated = 0
        /// Stored passkeys left as they were (the same, or a higher stored count).
        package var unchanged = 0
    }

    /// Imports `document`'s credentials into `contents`.
    ///
    /// - Parameter caller: an app (each RP ID needs an active, approved `webcredentials` entry:
    ///   SecurityError, exit 11/12), a browser origin (the RP ID is its host or a registrable
    ///   suffix: SecurityError, exit 50), or `nil`: each credential as a browser at `https://<rpId>`.
    /// - Throws: the first credential's failure (the RP IDs are all checked before anything
    ///   changes); the caller's transaction then writes nothing.
    package static func apply(
        _ document: PasskeyImportDocument, caller: PasskeyCaller?, to contents: inout StoreContents, at now: Date
    ) throws(SWCredError) -> Summary {
        for credential in document.credentials {
            let rpID = credential.passkey.rpID
            let who: PasskeyCaller
            if let caller {
                who = caller
            } else {
                who = .browser(try RelyingPartyID.Origin(parsing: "https://\(rpID)"))
            }
            try PasskeyAuthenticator.authorize(rpID: rpID, caller: who, contents: contents)
        }
        var summary = Summary(from: document.format.rawValue, passkeys: document.credentials.count)
        // A throw below (a limit) leaves the transaction to discard what was changed.
        for credential in document.credentials {
            switch try contents.importPasskey(
                credential.passkey, userName: credential.userName, displayName: credential.displayName, at: now)
            {
            case .added: summary.added += 1
            case .updated: summary.updated += 1
            case .unchanged: summary.unchanged += 1
            }
        }
        return summary
    }
}
