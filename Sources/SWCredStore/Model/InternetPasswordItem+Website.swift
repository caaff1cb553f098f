public import Foundation
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
    public static func passwordsNeverSaved(server: String) -> ItemQuery {
        ItemQuery(
            server: server, account: InternetPasswordItem.negativeEntryAccount, synchronizable: .any, isNegative: true)
    }
}

extension StoreContents {
    /// Whether the device owner chose never to save passwords for `server` (a "Passwords not
    /// saved" entry exists; ``ItemQuery/passwordsNeverSaved(server:)``).
    public func passwordsAreNeverSaved(for server: String) -> Bool {
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
    }

    /// Saves `item` as the device owner does in Safari: refused when passwords are never saved
    /// for its server; an existing item (same key) is a duplicate unless `update` replaces its
    /// password.
    ///
    /// - Throws: `duplicateItem` (a "Passwords not saved" entry, or the item exists and `update`
    ///   is false), and the store's `invalidParameter` / `limitExceeded`.
    public mutating func saveWebsitePassword(
        _ item: InternetPasswordItem, update: Bool, at date: Date
    ) throws(SWCredError) -> WebsitePasswordSave {
        if passwordsAreNeverSaved(for: item.server) { throw Self.neverSavedError(item.server) }
        if let existing = self.item(forKey: item.key) {
            guard update else { throw Self.existsError(item) }
            if existing.secret == item.secret { return .unchanged }
            try self.update(matching: ItemQuery(key: item.key), with: ItemUpdate(secret: item.secret), at: date)
            return .updated
        }
        try add(item, at: date)
        return .added
    }

    /// `duplicateItem`: passwords are never saved for `server`.
    public static func neverSavedError(_ server: String) -> SWCredError {
        SWCredError(.duplicateItem, "passwords are never saved for \(server) "
            + "(a \"Passwords not saved\" entry exists; remove it with swcred delete \(server) --never-save)")
    }

    /// `duplicateItem`: the item's key exists.
    public static func existsError(_ item: InternetPasswordItem) -> SWCredError {
        let site = item.port == 0 ? item.server : "\(item.server):\(item.port)"
        return SWCredError(.duplicateItem, "an item for \(site) and this account already exists; use -U to update it")
    }
}
