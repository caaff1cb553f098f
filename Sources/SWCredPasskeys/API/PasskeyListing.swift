package import FoundationEssentials
package import SWCredStore

/// A passkey as `swcred passkey list` and `passkey delete` show it: who and where, with the IDs in
/// base64url, and never key material.
package struct PasskeyListing: Encodable, Sendable, Hashable {
    package let rpID: String
    package let credentialID: String
    package let userHandle: String
    package let userName: String
    package let displayName: String
    package let created: Date
    package let lastUsed: Date

    /// The listing of `item` (its private key left out).
    package init(_ item: PasskeyItem) {
        rpID = item.rpID
        credentialID = Base64URL.encode(item.credentialID)
        userHandle = Base64URL.encode(item.userHandle)
        userName = item.userName
        displayName = item.displayName
        created = item.creationDate
        lastUsed = item.lastUsedDate
    }
}
