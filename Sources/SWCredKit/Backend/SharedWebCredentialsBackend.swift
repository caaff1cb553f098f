public import SWCredCore
public import SWCredStore

/// Approval states of an association record (AD-5.1): the store's own type under the Kit's name.
public typealias SWCApprovalState = AssociationRecord.Approval

/// The approvals of one `webcredentials` association record (AD-5.3, AD-5.4).
public struct SWCApproval: Sendable, Hashable, Codable {
    /// Site approval: `approved` when the site's file lists the app.
    public var site: SWCApprovalState
    /// User approval: changed by "Not Now" (`denied`) and by a legacy picker choice (`approved`).
    public var user: SWCApprovalState

    /// Creates approvals.
    public init(site: SWCApprovalState = .unspecified, user: SWCApprovalState = .unspecified) {
        self.site = site
        self.user = user
    }
}

/// Where the Shared Web Credentials functions keep their state: the items, the association
/// records, and the device settings.
///
/// Three implementations: the encrypted store (``StoreBackend``), a batch's store transaction, and
/// `SWCredTesting`'s in-memory keychain. Every method is one unit of work; `SharedWebCredentials`
/// serialises whole operations on one backend (SWC-3.4), so implementations need only make each
/// method atomic.
///
/// Items and queries are the store's own types. The queries the Kit passes name the attributes
/// that make an item visible to Shared Web Credentials (SWC-5.4: access group
/// `com.apple.cfnetwork`, synchronizable, `form`), so a backend applies them as given.
///
/// Errors are `SWCredError`s with the store's codes (`itemNotFound`, `duplicateItem`,
/// `interactionNotAllowed`, `busy`, …); the SWC layer maps them to completion errors.
public protocol SharedWebCredentialsBackend: Sendable {
    /// The device settings.
    func deviceSettings() async throws(SWCredError) -> SWCDeviceSettings
    /// The items matching `query`, negative entries included, in store (creation) order.
    func items(matching query: ItemQuery) async throws(SWCredError) -> [InternetPasswordItem]
    /// Adds an item; `duplicateItem` when its uniqueness key exists (SWC-5.2).
    func add(_ item: InternetPasswordItem) async throws(SWCredError)
    /// Replaces the secret and sets the comment of every non-negative item matching `query`,
    /// updating modification dates; `itemNotFound` when none matches.
    func updatePassword(matching query: ItemQuery, secret: [UInt8], comment: String) async throws(SWCredError)
    /// Deletes every non-negative item matching `query`; `itemNotFound` when none matches.
    func delete(matching query: ItemQuery) async throws(SWCredError)
    /// The approvals of the association record `key` (a `webcredentials` record), or `nil`
    /// without a record.
    func approval(for key: AssociationRecord.Key) async throws(SWCredError) -> SWCApproval?
    /// Sets the user approval of the association record `key`, creating the record (site
    /// approval `unspecified`) if there is none.
    func setUserApproval(_ state: SWCApprovalState, for key: AssociationRecord.Key) async throws(SWCredError)
}
