package import FoundationEssentials
package import SWCredCore
package import SWCredStore

// The Shared Web Credentials operations on the store's pure value type. Every backend uses them:
// the encrypted store (inside its write transaction), a batch's transaction and SWCredTesting's
// in-memory keychain, so the uniqueness and query rules are the store's own in all of them.

extension StoreContents {
    /// Replaces the secret and comment of every non-negative match (SWC-6.9).
    package mutating func updateSharedWebCredentials(
        matching query: ItemQuery, secret: [UInt8], comment: String, at date: Date
    ) throws(SWCredError) {
        var storeQuery = query
        storeQuery.isNegative = false
        var change = ItemUpdate.unchanged
        change.comment = comment
        change.secret = secret
        try update(matching: storeQuery, with: change, at: date)
    }

    /// Deletes every non-negative match (SWC-6.8 Decision: all matches, as `SecItemDelete`).
    package mutating func deleteSharedWebCredentials(matching query: ItemQuery) throws(SWCredError) {
        var storeQuery = query
        storeQuery.isNegative = false
        try delete(matching: storeQuery)
    }

    /// The approvals of the association record `key`, or `nil` without a record.
    package func sharedWebCredentialsApproval(for key: AssociationRecord.Key) -> SWCApproval? {
        associationRecord(forKey: key).map { SWCApproval(site: $0.siteApproval, user: $0.userApproval) }
    }

    /// Sets the user approval of the association record `key`, creating it when missing (AD-5.4).
    package mutating func setSharedWebCredentialsUserApproval(
        _ state: SWCApprovalState, for key: AssociationRecord.Key
    ) throws(SWCredError) {
        var record =
            associationRecord(forKey: key)
            ?? AssociationRecord(
                service: key.service, appID: key.appID, host: key.host, port: key.port, isWildcard: key.isWildcard,
                source: .manual)
        record.userApproval = state
        try upsertAssociationRecord(record)
    }
}
