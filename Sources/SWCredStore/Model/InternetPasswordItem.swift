public import FoundationEssentials

/// One internet-password item (`kSecClassInternetPassword`), as the store keeps it.
///
/// Every attribute of spec/store.md §2.1 is a stored property. Keys are compared as exact bytes:
/// canonicalisation (lowercasing hosts, for example) is the job of the layer that builds the item.
/// Four-character codes (``protocolCode``, ``authenticationType``, ``creator``) are exactly four
/// ASCII characters, or empty for "not set".
///
/// The password is ``secret``, raw bytes (the password as UTF-8). `description`, `debugDescription`
/// and `dump` print a redaction marker in its place. Copies Swift makes of the array (or of the
/// `String` from ``password``) cannot be wiped; the store wipes its own buffers.
///
/// ``creationDate`` and ``modificationDate`` are set by ``StoreContents`` from the injected clock,
/// at millisecond precision; values given by a caller are replaced on add.
public struct InternetPasswordItem: Sendable, Hashable, Codable {
    /// `kSecAttrServer`: the host, 1–253 UTF-8 bytes.
    public var server: String
    /// `kSecAttrAccount`: 0–512 UTF-8 bytes.
    public var account: String
    /// `kSecAttrPort`: 0 means unspecified. The true port is kept (no signed 16-bit wrap-around).
    public var port: UInt16
    /// `kSecAttrProtocol`: a four-character code such as `htps` or `http`, or empty.
    public var protocolCode: String
    /// `kSecAttrAuthenticationType`: `form`, `dflt`, `http`, `httd`, `ntlm`, `msna`, `dpaa`,
    /// `rpaa` (any four ASCII characters are kept), or empty.
    public var authenticationType: String
    /// `kSecAttrPath`: part of the uniqueness key; Shared Web Credentials never sets it.
    public var path: String
    /// `kSecAttrSecurityDomain`: part of the uniqueness key; Shared Web Credentials never sets it.
    public var securityDomain: String
    /// `kSecAttrLabel`: Shared Web Credentials writes `host (account)`.
    public var label: String
    /// `kSecAttrComment`: Shared Web Credentials writes `default`.
    public var comment: String
    /// `kSecAttrCreator`: a four-character code (Shared Web Credentials writes `swca`), or empty.
    public var creator: String
    /// `kSecAttrAccessGroup`: Shared Web Credentials writes `com.apple.cfnetwork`.
    public var accessGroup: String
    /// `kSecAttrSynchronizable`.
    public var synchronizable: Bool
    /// `kSecAttrIsNegative`: a "Passwords not saved" entry (no secret).
    public var isNegative: Bool
    /// `kSecAttrCreationDate`: set by the store on add, never changed afterwards.
    public var creationDate: Date
    /// `kSecAttrModificationDate`: set by the store on every change.
    public var modificationDate: Date
    /// `kSecValueData`: the password bytes (0–4,096), `nil` for negative entries.
    public var secret: [UInt8]?

    /// The account Safari uses for "never save a password for this site" entries.
    public static let negativeEntryAccount = "Passwords not saved"
    /// The access group Shared Web Credentials and Safari use.
    public static let sharedWebCredentialsAccessGroup = "com.apple.cfnetwork"

    /// Creates an item. Dates default to the reference date; the store sets them on add.
    public init(
        server: String,
        account: String,
        port: UInt16 = 0,
        protocolCode: String = "htps",
        authenticationType: String = "form",
        path: String = "",
        securityDomain: String = "",
        label: String = "",
        comment: String = "",
        creator: String = "",
        accessGroup: String = "",
        synchronizable: Bool = false,
        isNegative: Bool = false,
        creationDate: Date = Date(timeIntervalSince1970: 0),
        modificationDate: Date = Date(timeIntervalSince1970: 0),
        secret: [UInt8]? = nil
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
        self.creationDate = creationDate
        self.modificationDate = modificationDate
        self.secret = secret
    }

    /// A Safari "Passwords not saved" entry for `server` (spec/store.md §2.2): account
    /// `Passwords not saved`, access group `com.apple.cfnetwork`, authentication type `form`,
    /// synchronizable, negative, no secret.
    package static func negativeEntry(server: String, port: UInt16 = 0) -> InternetPasswordItem {
        InternetPasswordItem(
            server: server,
            account: negativeEntryAccount,
            port: port,
            protocolCode: "htps",
            authenticationType: "form",
            label: server,
            accessGroup: sharedWebCredentialsAccessGroup,
            synchronizable: true,
            isNegative: true,
            secret: nil
        )
    }

    /// The nine-attribute uniqueness key of this item (spec/store.md §3).
    package var key: ItemKey {
        ItemKey(
            accessGroup: accessGroup,
            synchronizable: synchronizable,
            server: server,
            account: account,
            port: port,
            protocolCode: protocolCode,
            authenticationType: authenticationType,
            path: path,
            securityDomain: securityDomain
        )
    }

    /// The secret decoded as UTF-8, or `nil` when there is none or it is not valid UTF-8.
    /// Decoded only when asked for; the `String` copy cannot be wiped.
    public var password: String? {
        guard let secret else { return nil }
        return String(validating: secret, as: UTF8.self)
    }
}

extension InternetPasswordItem {
    // Exact bytes, like the store's keys: Swift's String equality would merge canonically
    // equivalent spellings, and a change between them would then never be saved.
    public static func == (lhs: InternetPasswordItem, rhs: InternetPasswordItem) -> Bool {
        lhs.key == rhs.key && lhs.isNegative == rhs.isNegative && lhs.secret == rhs.secret
            && lhs.creationDate == rhs.creationDate && lhs.modificationDate == rhs.modificationDate
            && ExactBytes.equal(lhs.label, rhs.label) && ExactBytes.equal(lhs.comment, rhs.comment)
            && ExactBytes.equal(lhs.creator, rhs.creator)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(isNegative)
        hasher.combine(secret)
        hasher.combine(creationDate)
        hasher.combine(modificationDate)
    }
}

extension InternetPasswordItem: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The attributes, with the secret replaced by a redaction marker.
    public var description: String {
        "InternetPasswordItem(server: \(server), account: \(account), port: \(port), protocol: \(protocolCode), "
            + "authenticationType: \(authenticationType), accessGroup: \(accessGroup), "
            + "synchronizable: \(synchronizable), isNegative: \(isNegative), "
            + "secret: \(secret == nil ? "nil" : redactionMarker))"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror whose `secret` child is the redaction marker, so `dump` prints no password.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "server": server, "account": account, "port": port, "protocolCode": protocolCode,
                "authenticationType": authenticationType, "path": path, "securityDomain": securityDomain,
                "label": label, "comment": comment, "creator": creator, "accessGroup": accessGroup,
                "synchronizable": synchronizable, "isNegative": isNegative, "creationDate": creationDate,
                "modificationDate": modificationDate, "secret": secret == nil ? "nil" : redactionMarker,
            ],
            displayStyle: .struct
        )
    }

    private var redactionMarker: String { "<redacted>" }
}

/// The nine attributes that make an item unique (spec/store.md §3, after Apple's
/// `errSecDuplicateItem`): access group, synchronizable, server, account, port, protocol,
/// authentication type, path and security domain. Compared as exact bytes.
package struct ItemKey: Sendable, Hashable, Codable {
    /// `kSecAttrAccessGroup`.
    package var accessGroup: String
    /// `kSecAttrSynchronizable`.
    package var synchronizable: Bool
    /// `kSecAttrServer`.
    package var server: String
    /// `kSecAttrAccount`.
    package var account: String
    /// `kSecAttrPort`.
    package var port: UInt16
    /// `kSecAttrProtocol`.
    package var protocolCode: String
    /// `kSecAttrAuthenticationType`.
    package var authenticationType: String
    /// `kSecAttrPath`.
    package var path: String
    /// `kSecAttrSecurityDomain`.
    package var securityDomain: String

    // Keys are made only by ``InternetPasswordItem/key``, with the memberwise initializer the
    // compiler writes (the nine attributes in the order above).

    // Exact-byte comparison: Swift's String equality uses canonical equivalence, which would
    // merge differently normalised keys, so compare and hash the UTF-8 bytes instead.
    package static func == (lhs: ItemKey, rhs: ItemKey) -> Bool {
        lhs.synchronizable == rhs.synchronizable && lhs.port == rhs.port
            && ExactBytes.equal(lhs.server, rhs.server) && ExactBytes.equal(lhs.account, rhs.account)
            && ExactBytes.equal(lhs.accessGroup, rhs.accessGroup)
            && ExactBytes.equal(lhs.protocolCode, rhs.protocolCode)
            && ExactBytes.equal(lhs.authenticationType, rhs.authenticationType)
            && ExactBytes.equal(lhs.path, rhs.path) && ExactBytes.equal(lhs.securityDomain, rhs.securityDomain)
    }

    package func hash(into hasher: inout Hasher) {
        // The same sequence as ItemKey.combine(_:into:), so that an item and its key hash alike.
        hasher.combine(synchronizable)
        hasher.combine(port)
        ExactBytes.hash(accessGroup, into: &hasher)
        ExactBytes.hash(server, into: &hasher)
        ExactBytes.hash(account, into: &hasher)
        ExactBytes.hash(protocolCode, into: &hasher)
        ExactBytes.hash(authenticationType, into: &hasher)
        ExactBytes.hash(path, into: &hasher)
        ExactBytes.hash(securityDomain, into: &hasher)
    }
}

/// Byte-exact string comparison and hashing (no Unicode canonical equivalence).
enum ExactBytes {
    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        var l = lhs
        var r = rhs
        return l.withUTF8 { a in r.withUTF8 { b in a.count == b.count && a.elementsEqual(b) } }
    }

    static func hash(_ value: String, into hasher: inout Hasher) {
        var copy = value
        copy.withUTF8 { bytes in
            hasher.combine(bytes.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
    }
}
