public import Foundation

/// An internet-password item as the Shared Web Credentials layer sees it (SWC-5.1, `spec/store.md` §2.1).
///
/// The class is always `kSecClassInternetPassword`. The secret is the password as UTF-8 bytes;
/// negative "Passwords not saved" entries have none. `description` never shows the secret.
public struct SWCItem: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// `com.apple.cfnetwork`, Safari's access group, the only one SWC lookups see (SWC-5.4).
    public static let safariAccessGroup = "com.apple.cfnetwork"
    /// The account of Safari's "never save for this site" entry (SWC-5.3).
    public static let passwordsNotSavedAccount = "Passwords not saved"

    /// `srvr`: the host, lowercased by the Shared Web Credentials layer.
    public var server: String
    /// `acct`: the account as given.
    public var account: String
    /// `port`: the true port, or `nil` for none (stored as 0).
    public var port: Int?
    /// `ptcl`: four-character protocol code, `htps` for SWC items.
    public var protocolCode: String
    /// `atyp`: four-character authentication type, `form` for SWC items.
    public var authenticationType: String
    /// `agrp`: the access group.
    public var accessGroup: String
    /// `sync`: synchronizable (iCloud Keychain).
    public var synchronizable: Bool
    /// `labl`: `host (account)` for SWC items.
    public var label: String
    /// `icmt`: `default` for SWC items.
    public var comment: String
    /// `crtr`: four-character creator code, `swca` for SWC items.
    public var creator: String
    /// `path`: empty for SWC items.
    public var path: String
    /// `sdmn`: empty for SWC items.
    public var securityDomain: String
    /// A negative "Passwords not saved" entry (no secret).
    public var isNegative: Bool
    /// `v_Data`: the password bytes (UTF-8); `nil` for negative entries.
    public var secret: [UInt8]?
    /// `cdat`, set by the store.
    public var created: Date?
    /// `mdat`, set by the store.
    public var modified: Date?

    /// Creates an item with every attribute given.
    public init(
        server: String, account: String, port: Int? = nil, protocolCode: String = "htps",
        authenticationType: String = "form", accessGroup: String = SWCItem.safariAccessGroup,
        synchronizable: Bool = true, label: String? = nil, comment: String = "default", creator: String = "swca",
        path: String = "", securityDomain: String = "", isNegative: Bool = false, secret: [UInt8]?,
        created: Date? = nil, modified: Date? = nil
    ) {
        self.server = server
        self.account = account
        self.port = (port ?? 0) > 0 ? port : nil
        self.protocolCode = protocolCode
        self.authenticationType = authenticationType
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
        self.label = label ?? "\(server) (\(account))"
        self.comment = comment
        self.creator = creator
        self.path = path
        self.securityDomain = securityDomain
        self.isNegative = isNegative
        self.secret = isNegative ? nil : secret
        self.created = created
        self.modified = modified
    }

    /// The item an add writes (SWC-5.1): `inet`, `com.apple.cfnetwork`, `sync` true, server = the
    /// parsed host, the account as given, the port only when given, `htps`, `form`,
    /// label `host (account)`, comment `default`, creator `swca`, the password as UTF-8.
    public static func sharedWebCredential(host: String, account: String, port: Int?, password: String) -> SWCItem {
        SWCItem(server: host, account: account, port: port, secret: Array(password.utf8))
    }


    /// The password as a string, when the item has one (invalid UTF-8 is repaired).
    public var password: String? { secret.map { String(decoding: $0, as: UTF8.self) } }

    /// Whether SWC lookups can see the item (SWC-5.4).
    var isVisibleToSharedWebCredentials: Bool {
        accessGroup == Self.safariAccessGroup && synchronizable
    }

    public var description: String {
        "SWCItem(\(label), port: \(port.map(String.init) ?? "none"), secret: \(secret == nil ? "none" : "<redacted>"))"
    }

    public var debugDescription: String { description }
}

/// A query over SWC-visible items (`inet`, `com.apple.cfnetwork`, `sync` true, `atyp` `form`).
///
/// Attributes left `nil` are wildcards, as in a keychain query; the port matches exactly when
/// given (so an item of any port matches a query without one, SWC-6.8).
public struct SWCItemQuery: Sendable, Hashable {
    /// `srvr`, compared exactly.
    public var server: String?
    /// `acct`, compared exactly.
    public var account: String?
    /// `port`, compared exactly when given.
    public var port: Int?
    /// `ptcl`, compared exactly when given (the legacy request query names `htps`, SWC-7.3).
    public var protocolCode: String?

    /// Creates a query.
    public init(server: String? = nil, account: String? = nil, port: Int? = nil, protocolCode: String? = nil) {
        self.server = server
        self.account = account
        self.port = port
        self.protocolCode = protocolCode
    }

    /// Every SWC-visible item.
    public static let all = SWCItemQuery()

    /// Whether `item` matches: SWC visibility, `atyp` `form`, and every attribute given.
    public func matches(_ item: SWCItem) -> Bool {
        guard item.isVisibleToSharedWebCredentials, item.authenticationType == "form" else { return false }
        if let server, item.server != server { return false }
        if let account, item.account != account { return false }
        if let port, item.port != port { return false }
        if let protocolCode, item.protocolCode != protocolCode { return false }
        return true
    }
}
