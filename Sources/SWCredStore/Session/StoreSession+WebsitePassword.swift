internal import FoundationEssentials
package import SWCredCore

extension StoreSession {
    /// Saves a website password as the device owner does in Safari (`swcred add DOMAIN ACCOUNT`,
    /// `-U` for `update`), with ``StoreContents/saveWebsitePassword(_:update:at:)``'s rules.
    ///
    /// The common case, a new item in an existing store, is added in place without building the
    /// store's other items (``addIfAbsent(_:refusingServersNeverSaved:)``); creating the store and
    /// updating an item take one general transaction of this session, so a passphrase is read and
    /// Argon2id runs once either way. The refusals (`keyExists`, `serverNeverSaved`) are outcomes
    /// for the caller to word.
    /// - Throws: the store's errors.
    package func saveWebsitePassword(_ item: InternetPasswordItem, update: Bool) throws(SWCredError)
        -> StoreContents.WebsitePasswordSave
    {
        switch try addIfAbsent(item, refusingServersNeverSaved: true) {
        case .added?: return .added
        case .serverNeverSaved?: return .serverNeverSaved
        case .keyExists? where !update: return .keyExists
        case .keyExists?, nil:
            return try modify(createIfMissing: true) {
                (contents: inout StoreContents, now: Date) throws(SWCredError) -> StoreContents.WebsitePasswordSave in
                try contents.saveWebsitePassword(item, update: update, at: now)
            }
        }
    }

    /// Records Safari's "Passwords not saved" entry for `server` and `port` (store.md §2.2);
    /// `unchanged` when it is there already. The store is created on first write.
    /// - Throws: the store's errors.
    package func addPasswordsNotSavedEntry(server: String, port: UInt16) throws(SWCredError)
        -> StoreContents.WebsitePasswordSave
    {
        let entry = InternetPasswordItem.negativeEntry(server: server, port: port)
        return try modify(createIfMissing: true) {
            (contents: inout StoreContents, now: Date) throws(SWCredError) -> StoreContents.WebsitePasswordSave in
            if contents.item(forKey: entry.key) != nil { return .unchanged }
            try contents.add(entry, at: now)
            return .added
        }
    }
}

extension StoreSession {
    /// Deletes the items `query` matches in one transaction (`swcred delete`). When none matches,
    /// nothing is written and the error is `itemNotFound` with `notFound` as its message.
    /// - Returns: the deleted items.
    /// - Throws: `itemNotFound`; `storeNotFound` without a store; the store's errors.
    package func deleteItems(matching query: ItemQuery, notFound: String) throws(SWCredError) -> [InternetPasswordItem] {
        try modify(createIfMissing: false) {
            (contents: inout StoreContents, _: Date) throws(SWCredError) -> [InternetPasswordItem] in
            guard !contents.items(matching: query).isEmpty else { throw SWCredError(.itemNotFound, notFound) }
            return try contents.delete(matching: query)
        }
    }

    /// Deletes the item `name` names (cli.md "Names of one item"): on the port it resolves to,
    /// every item of that host and account (they print as one line of `list`), nothing else.
    /// - Returns: the items removed.
    /// - Throws: `itemNotFound` with `notFound`; `usage` for an ambiguous name; the store's errors.
    package func deleteItems(named name: ItemName, notFound: String) throws(SWCredError) -> [InternetPasswordItem] {
        try modify(createIfMissing: false) {
            (contents: inout StoreContents, _: Date) throws(SWCredError) -> [InternetPasswordItem] in
            let candidates = contents.items(matching: name.candidates).filter { !$0.isNegative }
            guard let port = try name.port(among: candidates) else { throw SWCredError(.itemNotFound, notFound) }
            var query = name.query(port: port)
            query.isNegative = false
            return try contents.delete(matching: query)
        }
    }

    /// The saved password item `name` names (cli.md "Names of one item"), reading only the
    /// candidates; `nil` when there is none.
    /// - Throws: `usage` for an ambiguous name; the store's errors.
    package func passwordItem(named name: ItemName) throws(SWCredError) -> InternetPasswordItem? {
        let candidates = try read(selection: ReadSelection(items: name.candidates)).contents
            .passwordItems(matching: name.candidates)
        guard let port = try name.port(among: candidates) else { return nil }
        return candidates.first { $0.port == port }
    }
}
