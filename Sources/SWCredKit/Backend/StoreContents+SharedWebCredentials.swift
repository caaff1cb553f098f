public import Foundation
public import SWCredCore
public import SWCredStore

// The Shared Web Credentials operations on the store's pure value type. Both backends use them:
// the encrypted store (inside its write transaction) and SWCredTesting's in-memory keychain, so the
// uniqueness and query rules are the store's own in both.

extension SWCItem {
    /// The SWC view of a store item.
    public init(_ item: InternetPasswordItem) {
        self.init(
            server: item.server, account: item.account, port: item.port == 0 ? nil : Int(item.port),
            protocolCode: item.protocolCode, authenticationType: item.authenticationType,
            accessGroup: item.accessGroup, synchronizable: item.synchronizable, label: item.label,
            comment: item.comment, creator: item.creator, path: item.path, securityDomain: item.securityDomain,
            isNegative: item.isNegative, secret: item.secret, created: item.creationDate,
            modified: item.modificationDate)
    }
}

extension InternetPasswordItem {
    /// The store item for an SWC item; fails with `invalidParameter` for a port outside 0–65535.
    public init(_ item: SWCItem) throws(SWCredError) {
        guard let port = UInt16(exactly: item.port ?? 0) else {
            throw SWCredError(.invalidParameter, "port \(item.port ?? 0) is outside 1-65535")
        }
        self.init(
            server: item.server, account: item.account, port: port, protocolCode: item.protocolCode,
            authenticationType: item.authenticationType, path: item.path, securityDomain: item.securityDomain,
            label: item.label, comment: item.comment, creator: item.creator, accessGroup: item.accessGroup,
            synchronizable: item.synchronizable, isNegative: item.isNegative, secret: item.secret)
    }
}

extension ItemQuery {
    /// The store query for an SWC query: `com.apple.cfnetwork`, synchronizable, `form`, plus the
    /// attributes the SWC query names (SWC-5.4, SWC-6.7, SWC-6.8, SWC-7.3).
    public init(_ query: SWCItemQuery) {
        self.init(
            server: query.server, account: query.account, port: query.port.flatMap { UInt16(exactly: $0) },
            protocolCode: query.protocolCode, authenticationType: "form", accessGroup: SWCItem.safariAccessGroup,
            synchronizable: .yes)
    }
}

extension SWCRecordDomain {
    /// The association-record key of (`webcredentials`, `appID`, this domain).
    public func recordKey(appID: String) -> AssociationRecord.Key {
        AssociationRecord.Key(
            service: .webcredentials, appID: appID, host: host, port: port.flatMap { UInt16(exactly: $0) },
            isWildcard: wildcard)
    }
}

extension StoreContents {
    /// SWC-visible items matching `query`, negative entries included, in store order.
    public func sharedWebCredentialItems(matching query: SWCItemQuery) -> [SWCItem] {
        let storeQuery = ItemQuery(query)
        return items(matching: storeQuery).map(SWCItem.init)
    }

    /// Adds an SWC item at `date`.
    public mutating func addSharedWebCredential(_ item: SWCItem, at date: Date) throws(SWCredError) {
        try add(InternetPasswordItem(item), at: date)
    }

    /// Replaces the secret and comment of every non-negative match (SWC-6.9).
    public mutating func updateSharedWebCredentials(
        matching query: SWCItemQuery, secret: [UInt8], comment: String, at date: Date
    ) throws(SWCredError) {
        var storeQuery = ItemQuery(query)
        storeQuery.isNegative = false
        try update(matching: storeQuery, with: ItemUpdate(comment: comment, secret: secret), at: date)
    }

    /// Deletes every non-negative match (SWC-6.8 Decision: all matches, as `SecItemDelete`).
    public mutating func deleteSharedWebCredentials(matching query: SWCItemQuery) throws(SWCredError) {
        var storeQuery = ItemQuery(query)
        storeQuery.isNegative = false
        try delete(matching: storeQuery)
    }

    /// The approvals of the `webcredentials` record for (`appID`, `domain`).
    public func sharedWebCredentialsApproval(appID: String, domain: SWCRecordDomain) -> SWCApproval? {
        associationRecord(forKey: domain.recordKey(appID: appID)).map {
            SWCApproval(site: $0.siteApproval, user: $0.userApproval)
        }
    }

    /// Sets the user approval of the `webcredentials` record, creating it when missing (AD-5.4).
    public mutating func setSharedWebCredentialsUserApproval(
        _ state: SWCApprovalState, appID: String, domain: SWCRecordDomain
    ) throws(SWCredError) {
        let key = domain.recordKey(appID: appID)
        var record =
            associationRecord(forKey: key)
            ?? AssociationRecord(
                service: .webcredentials, appID: appID, host: key.host, port: key.port, isWildcard: key.isWildcard,
                source: .manual)
        record.userApproval = state
        try upsertAssociationRecord(record)
    }
}
