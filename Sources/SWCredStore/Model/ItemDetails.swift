/// The attributes of an item that `swcred show` prints beside its ``ItemListing``: the rest of
/// the keychain attributes, never the secret.
package struct ItemDetails: Encodable, Sendable, Hashable {
    package let `protocol`, authenticationType, path, securityDomain, comment, creator, accessGroup: String
    package let synchronizable: Bool

    /// The details of `item`.
    package init(_ item: InternetPasswordItem) {
        `protocol` = item.protocolCode
        authenticationType = item.authenticationType
        path = item.path
        securityDomain = item.securityDomain
        comment = item.comment
        creator = item.creator
        accessGroup = item.accessGroup
        synchronizable = item.synchronizable
    }
}
