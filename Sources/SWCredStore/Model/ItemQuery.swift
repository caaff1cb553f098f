/// How a query treats `kSecAttrSynchronizable`.
public enum SynchronizableMatch: Sendable, Hashable, Codable {
    /// Only non-synchronizable items. This is what a query that does not name the attribute does.
    case no
    /// Only synchronizable items.
    case yes
    /// Both, as with `kSecAttrSynchronizableAny`.
    case any

    /// Whether an item's flag matches.
    public func matches(_ synchronizable: Bool) -> Bool {
        switch self {
        case .no: !synchronizable
        case .yes: synchronizable
        case .any: true
        }
    }
}

/// A store-level item query (spec/store.md §3).
///
/// Attributes left `nil` are wildcards, except ``synchronizable``, which defaults to ``SynchronizableMatch/no``
/// (a query that does not name it matches only non-synchronizable items), as Apple's keychain does.
/// Values are compared as exact bytes. ``isNegative`` `nil` matches both ordinary items and
/// "Passwords not saved" entries; use ``StoreContents/passwordItems(matching:)`` for queries that
/// return passwords, which never returns negative entries.
public struct ItemQuery: Sendable, Hashable, Codable {
    /// `kSecAttrServer`.
    public var server: String?
    /// `kSecAttrAccount`.
    public var account: String?
    /// `kSecAttrPort`.
    public var port: UInt16?
    /// `kSecAttrProtocol`.
    public var protocolCode: String?
    /// `kSecAttrAuthenticationType`.
    public var authenticationType: String?
    /// `kSecAttrPath`.
    public var path: String?
    /// `kSecAttrSecurityDomain`.
    public var securityDomain: String?
    /// `kSecAttrLabel`.
    public var label: String?
    /// `kSecAttrComment`.
    public var comment: String?
    /// `kSecAttrCreator`.
    public var creator: String?
    /// `kSecAttrAccessGroup`.
    public var accessGroup: String?
    /// `kSecAttrSynchronizable`: `.no` unless named.
    public var synchronizable: SynchronizableMatch
    /// `kSecAttrIsNegative`: `nil` matches both.
    public var isNegative: Bool?

    /// Creates a query; every attribute defaults to a wildcard except `synchronizable` (`.no`).
    public init(
        server: String? = nil,
        account: String? = nil,
        port: UInt16? = nil,
        protocolCode: String? = nil,
        authenticationType: String? = nil,
        path: String? = nil,
        securityDomain: String? = nil,
        label: String? = nil,
        comment: String? = nil,
        creator: String? = nil,
        accessGroup: String? = nil,
        synchronizable: SynchronizableMatch = .no,
        isNegative: Bool? = nil
    ) {
        self.server = server
        self.account = account
        self.port = port
        self.protocolCode = protocolCode
        self.authenticationType = authenticationType
        self.path = path
        self.securityDomain = securityDomain
        self.label = label
        self.comment = comment
        self.creator = creator
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
        self.isNegative = isNegative
    }

    /// The query that matches exactly the item with this uniqueness key.
    package init(key: ItemKey) {
        self.init(
            server: key.server, account: key.account, port: key.port, protocolCode: key.protocolCode,
            authenticationType: key.authenticationType, path: key.path, securityDomain: key.securityDomain,
            accessGroup: key.accessGroup, synchronizable: key.synchronizable ? .yes : .no
        )
    }

    /// Whether `item` matches every attribute this query names.
    public func matches(_ item: InternetPasswordItem) -> Bool {
        guard synchronizable.matches(item.synchronizable) else { return false }
        if let isNegative, isNegative != item.isNegative { return false }
        if let port, port != item.port { return false }
        return Self.same(server, item.server) && Self.same(account, item.account)
            && Self.same(protocolCode, item.protocolCode)
            && Self.same(authenticationType, item.authenticationType) && Self.same(path, item.path)
            && Self.same(securityDomain, item.securityDomain) && Self.same(label, item.label)
            && Self.same(comment, item.comment) && Self.same(creator, item.creator)
            && Self.same(accessGroup, item.accessGroup)
    }

    /// Exact-byte comparison; `nil` is a wildcard.
    private static func same(_ wanted: String?, _ actual: String) -> Bool {
        guard let wanted else { return true }
        return ExactBytes.equal(wanted, actual)
    }
}

/// Attributes to change on the items an update matches. `nil` leaves an attribute as it is.
///
/// Setting ``isNegative`` to `true` removes the secret. The creation date never changes; the
/// modification date is set by the store.
package struct ItemUpdate: Sendable, Hashable, Codable {
    /// New `kSecAttrServer`.
    package var server: String?
    /// New `kSecAttrAccount`.
    package var account: String?
    /// New `kSecAttrPort`.
    package var port: UInt16?
    /// New `kSecAttrProtocol`.
    package var protocolCode: String?
    /// New `kSecAttrAuthenticationType`.
    package var authenticationType: String?
    /// New `kSecAttrPath`.
    package var path: String?
    /// New `kSecAttrSecurityDomain`.
    package var securityDomain: String?
    /// New `kSecAttrLabel`.
    package var label: String?
    /// New `kSecAttrComment`.
    package var comment: String?
    /// New `kSecAttrCreator`.
    package var creator: String?
    /// New `kSecAttrAccessGroup`.
    package var accessGroup: String?
    /// New `kSecAttrSynchronizable`.
    package var synchronizable: Bool?
    /// New `kSecAttrIsNegative`.
    package var isNegative: Bool?
    /// New `kSecValueData`.
    package var secret: [UInt8]?

    // In this module, the memberwise initializer the compiler writes: every attribute defaults
    // to nil, "unchanged" (other modules start from ``unchanged``).

    /// Applies the update to `item` (dates untouched).
    package func applied(to item: InternetPasswordItem) -> InternetPasswordItem {
        var out = item
        if let server { out.server = server }
        if let account { out.account = account }
        if let port { out.port = port }
        if let protocolCode { out.protocolCode = protocolCode }
        if let authenticationType { out.authenticationType = authenticationType }
        if let path { out.path = path }
        if let securityDomain { out.securityDomain = securityDomain }
        if let label { out.label = label }
        if let comment { out.comment = comment }
        if let creator { out.creator = creator }
        if let accessGroup { out.accessGroup = accessGroup }
        if let synchronizable { out.synchronizable = synchronizable }
        if let isNegative { out.isNegative = isNegative }
        if let secret { out.secret = secret }
        if out.isNegative { out.secret = nil }
        return out
    }
}

extension ItemUpdate: CustomStringConvertible {
    /// The changed attribute names; the secret is never printed.
    package var description: String {
        "ItemUpdate(secret: \(secret == nil ? "unchanged" : "<redacted>"))"
    }
}

extension ItemUpdate {
    /// An update that changes nothing: set the attributes to change on a copy.
    package static var unchanged: ItemUpdate { ItemUpdate() }
}
