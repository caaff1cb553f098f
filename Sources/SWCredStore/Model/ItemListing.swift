package import FoundationEssentials
package import SWCredCore

/// An item as `swcred list` and `show` print it: attributes only, never the secret.
/// JSON: `{"server","account","port","label","created","modified","negative"}`, `port` `null`
/// when unspecified (0); "Passwords not saved" entries are marked `negative`.
package struct ItemListing: Encodable, Sendable, Hashable {
    package let server: String
    package let account: String
    @ExplicitNull package var port: UInt16?
    package let label: String
    package let created: Date
    package let modified: Date
    package let negative: Bool

    /// The listing of `item`.
    package init(_ item: InternetPasswordItem) {
        server = item.server
        account = item.account
        port = item.port == 0 ? nil : item.port
        label = item.label
        created = item.creationDate
        modified = item.modificationDate
        negative = item.isNegative
    }
}
