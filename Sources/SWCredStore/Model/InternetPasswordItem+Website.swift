public import FoundationEssentials
public import SWCredCore

// Saving a website's password as Safari does: the item's shape and the "Passwords not saved"
// rule, written once for `swcred add` (browser path), `swcred import` and the store's one-buffer
// add (spec/store.md §2.2, shared-web-credentials.md SWC-5.3).
extension InternetPasswordItem {
    /// A website password as Safari and the Shared Web Credentials layer write it: server = the
    /// canonical host, authentication type `form`, label `host (account)`, comment `default`,
    /// creator `swca`, access group `com.apple.cfnetwork`, synchronizable. So `request`, `show`
    /// and `list` find it, and an app-path add of the same credential is a duplicate.
    ///
    /// - Parameters:
    ///   - port: 0 for "unspecified".
    ///   - protocolCode: `htps` (the default), or `http` for a plain-HTTP site.
    public static func websitePassword(
        server: String, account: String, port: UInt16 = 0, protocolCode: String = "htps", secret: [UInt8]?
    ) -> InternetPasswordItem {
        InternetPasswordItem(
            server: server,
            account: account,
            port: port,
            protocolCode: protocolCode,
            authenticationType: "form",
            label: "\(server) (\(account))",
            comment: "default",
            creator: "swca",
            accessGroup: sharedWebCredentialsAccessGroup,
            synchronizable: true,
            secret: secret
        )
    }
}

extension ItemQuery {
    /// The "Passwords not saved" entries for `server`: any port, any synchronizable value
    /// (spec/store.md §2.2). One such entry stops every save of a password for the server.
    static func passwordsNeverSaved(server: String) -> ItemQuery {
        ItemQuery(
            server: server, account: InternetPasswordItem.negativeEntryAccount, synchronizable: .any, isNegative: true)
    }
}

extension StoreContents {
    /// Whether the device owner chose never to save passwords for `server` (a "Passwords not
    /// saved" entry exists; ``ItemQuery/passwordsNeverSaved(server:)``).
    func passwordsAreNeverSaved(for server: String) -> Bool {
        !items(matching: .passwordsNeverSaved(server: server)).isEmpty
    }

    /// What ``saveWebsitePassword(_:update:at:)`` did.
    public enum WebsitePasswordSave: String, Sendable, Hashable {
        /// A new item.
        case added
        /// The existing item's password was replaced.
        case updated
        /// The existing item already had this password; nothing changed.
        case unchanged
        /// An item with the same key exists and no update was asked for; nothing changed.
        case keyExists
        /// A "Passwords not saved" entry exists for the item's server; nothing changed.
        case serverNeverSaved
    }

    /// Saves `item` as the device owner does in Safari: not when passwords are never saved for
    /// its server; an existing item (same key) is left alone unless `update` replaces its
    /// password. The refusals are outcomes, for the caller to word (as
    /// ``KeychainStore/addIfAbsent(_:refusingServersNeverSaved:)`` reports them).
    ///
    /// - Throws: the store's `invalidParameter` / `limitExceeded`.
    public mutating func saveWebsitePassword(
        _ item: InternetPasswordItem, update: Bool, at date: Date
    ) throws(SWCredError) -> WebsitePasswordSave {
        if passwordsAreNeverSaved(for: item.server) { return .serverNeverSaved }
        if let existing = self.item(forKey: item.key) {
            guard update else { return .keyExists }
            if existing.secret == item.secret { return .unchanged }
            try self.update(matching: ItemQuery(key: item.key), with: ItemUpdate(secret: item.secret), at: date)
            return .updated
        }
        try add(item, at: date)
        return .added
    }
}
