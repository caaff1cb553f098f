package import SWCredCore
public import SWCredStore

// The Shared Web Credentials layer works on the store's own item and query types; what is
// specific to it (the shape of the item an add writes, the attributes every SWC query names, the
// `webcredentials` record key) is built here, once (SWC-5.1, SWC-5.4, `spec/store.md` §2.1, §2.3).

/// The store's internet-password item, under the name the Kit used before it worked on the
/// store's type.
@available(*, deprecated, renamed: "InternetPasswordItem")
public typealias SWCItem = InternetPasswordItem

/// The store's item query, under the name the Kit used before it worked on the store's type.
@available(*, deprecated, renamed: "ItemQuery")
public typealias SWCItemQuery = ItemQuery

extension InternetPasswordItem {
    /// The item an add writes (SWC-5.1): `inet`, `com.apple.cfnetwork`, `sync` true, server = the
    /// parsed host, the account as given, the port only when given, `htps`, `form`, label
    /// `host (account)`, comment `default`, creator `swca`, the password as UTF-8
    /// (``websitePassword(server:account:port:protocolCode:secret:)``, which `swcred add` uses too).
    ///
    /// - Throws: `invalidParameter` for a port outside 1–65535.
    package static func sharedWebCredential(
        host: String, account: String, port: Int?, password: String
    ) throws(SWCredError) -> InternetPasswordItem {
        .websitePassword(
            server: host, account: account, port: try storePort(port), secret: Array(password.utf8))
    }

    /// ``port`` as the Shared Web Credentials API gives it: `nil` for "unspecified" (stored as 0).
    ///
    /// Every port the Kit and `SWCredTesting` show is an `Int?` with `nil` for none
    /// (``SharedWebCredential/port``, `InMemoryKeychain.seed(server:account:password:port:comment:)`,
    /// ``SWCAddReport/port``, ``SWCPrompt/Candidate/port``); the store item keeps `kSecAttrPort`
    /// as its file does (`UInt16`, 0 for none), and this is that port in the Kit's terms.
    public var specifiedPort: Int? { port == 0 ? nil : Int(port) }

    /// The password the Shared Web Credentials API returns: the secret as UTF-8, with invalid
    /// sequences repaired (U+FFFD), as `CFString` creation from the keychain's bytes does; `nil`
    /// without a secret.
    package var sharedWebCredentialPassword: String? { secret.map { String(decoding: $0, as: UTF8.self) } }

    /// The store's port for an SWC port: 0 for none, `invalidParameter` outside 1–65535.
    static func storePort(_ port: Int?) throws(SWCredError) -> UInt16 {
        guard let port, port > 0 else { return 0 }
        guard let value = UInt16(exactly: port) else {
            throw SWCredError(.invalidParameter, "port \(port) is outside 1-65535")
        }
        return value
    }
}

extension ItemQuery {
    /// A query over the items Shared Web Credentials can see (SWC-5.4): access group
    /// `com.apple.cfnetwork`, synchronizable, authentication type `form`, plus the attributes
    /// given. The port matches exactly when given, so an item of any port matches a query without
    /// one (SWC-6.8); the legacy request names the protocol `htps` (SWC-7.3).
    package static func sharedWebCredentials(
        server: String? = nil, account: String? = nil, port: Int? = nil, protocolCode: String? = nil
    ) -> ItemQuery {
        ItemQuery(
            server: server, account: account, port: port.flatMap { UInt16(exactly: $0) },
            protocolCode: protocolCode, authenticationType: "form",
            accessGroup: InternetPasswordItem.sharedWebCredentialsAccessGroup, synchronizable: .yes)
    }

    /// Every item Shared Web Credentials can see, negative entries included.
    package static var allSharedWebCredentials: ItemQuery { sharedWebCredentials() }
}

extension AssociationRecord.Key {
    /// The key of the `webcredentials` record for (`appID`, `host`, `port`, wildcard)
    /// (`spec/store.md` §3). A port outside 1–65535 cannot name a record and is dropped.
    package static func webCredentials(appID: String, host: String, port: Int?, isWildcard: Bool = false) -> Self {
        Self(
            service: .webcredentials, appID: appID, host: host, port: port.flatMap { UInt16(exactly: $0) },
            isWildcard: isWildcard)
    }
}
