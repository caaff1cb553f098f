package import FoundationEssentials
package import SWCredCore

/// What importing one passkey did (`passkey import`'s summary counts).
package enum PasskeyImportOutcome: String, Sendable, Hashable {
    /// A new credential ID for its RP ID (a passkey of the same RP ID and user handle is replaced,
    /// as registration does).
    case added
    /// The stored passkey of this credential ID took the imported key, user handle, count or names.
    case updated
    /// The stored passkey is the same, or its count is higher (a stale document never rolls a count back).
    case unchanged
}

extension StoreContents {
    /// Imports a passkey taken from a browser test's document (`passkey import`).
    ///
    /// A credential ID already stored for the RP ID is replaced (key, user handle, count) when
    /// ``PasskeySignCount/importReplaces(stored:imported:)`` allows it, else left as it is. The
    /// names are the imported ones when given (`nil`: the stored passkey's, or empty for a new one).
    /// Another passkey of the same RP ID and user handle is removed (WebAuthn: one credential per
    /// user and RP ID on an authenticator). A new passkey's dates are `date`; an updated one keeps its.
    /// - Throws: `invalidParameter` (a field over its limit), `limitExceeded` (items and passkeys
    ///   together over `maxItems`).
    package mutating func importPasskey(
        _ imported: PasskeyItem, userName: String?, displayName: String?, at date: Date
    ) throws(SWCredError) -> PasskeyImportOutcome {
        var passkey = imported
        let existingIndex = passkeys.firstIndex {
            ExactBytes.equal($0.rpID, passkey.rpID) && $0.credentialID == passkey.credentialID
        }
        guard let existingIndex else {
            passkey.userName = userName ?? ""
            passkey.displayName = displayName ?? ""
            try addPasskey(passkey, at: date)
            return .added
        }
        let stored = passkeys[existingIndex]
        guard PasskeySignCount.importReplaces(stored: stored.signCount, imported: passkey.signCount) else {
            return .unchanged
        }
        passkey.userName = userName ?? stored.userName
        passkey.displayName = displayName ?? stored.displayName
        passkey.creationDate = stored.creationDate
        passkey.lastUsedDate = stored.lastUsedDate
        try passkey.validate()
        guard passkey != stored else { return .unchanged }
        passkeys[existingIndex] = passkey
        passkeys.removeAll {
            ExactBytes.equal($0.rpID, passkey.rpID) && $0.userHandle == passkey.userHandle
                && $0.credentialID != passkey.credentialID
        }
        return .updated
    }
}
