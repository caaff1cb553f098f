public import Foundation
public import SWCredCore
public import SWCredKit
public import SWCredStore
import Synchronization

/// An in-memory keychain for tests of code that uses Shared Web Credentials.
///
/// It holds the store's own value type (`StoreContents`) without encryption or files, so items,
/// uniqueness and queries behave exactly as in the encrypted store. Seed credentials, "Passwords
/// not saved" entries, association approvals and device settings, then run the code under test
/// against a ``SharedWebCredentials`` built on it.
///
/// Example:
/// ```swift
/// let keychain = InMemoryKeychain()
/// try keychain.seed(server: "example.com", account: "alice", password: "hunter2")
/// try keychain.approve(appID: "ABCDE12345.com.example.app", domain: "example.com")
/// ```
public final class InMemoryKeychain: SharedWebCredentialsBackend {
    /// A store operation, for ``failNext(_:with:)``.
    public enum Operation: Sendable, Hashable, CaseIterable {
        case read, add, update, delete, setApproval
    }

    private struct State {
        var contents: StoreContents
        var failures: [Operation: SWCredError] = [:]
    }

    private let state: Mutex<State>
    private let clock: @Sendable () -> Date

    /// Creates an empty keychain.
    /// - Parameters:
    ///   - settings: the device settings (default: AutoFill on, developer mode off, unmanaged).
    ///   - clock: the time stamped on items (default: the system clock).
    public init(settings: SWCDeviceSettings = SWCDeviceSettings(), clock: @escaping @Sendable () -> Date = { Date() }) {
        let contents = StoreContents(
            creationDate: clock(),
            settings: DeviceSettings(
                autoFillEnabled: settings.autoFillEnabled, developerMode: settings.developerMode,
                managedDevice: settings.managedDevice))
        self.state = Mutex(State(contents: contents))
        self.clock = clock
    }

    // MARK: Seeding and inspection

    /// The contents as the store would hold them.
    public var contents: StoreContents { state.withLock { $0.contents } }

    /// Every SWC-visible item, negative entries included, in store order.
    public var items: [InternetPasswordItem] {
        state.withLock { $0.contents.items(matching: .allSharedWebCredentials) }
    }

    /// The saved credentials (negative entries left out), in store order, as a legacy request
    /// returns them: server, account, password, and the port when the item has one.
    public var credentials: [SharedWebCredential] {
        items.filter { !$0.isNegative }.map {
            SharedWebCredential(
                server: $0.server, account: $0.account, password: $0.sharedWebCredentialPassword ?? "",
                port: $0.specifiedPort)
        }
    }

    /// The device settings.
    public var settings: SWCDeviceSettings {
        get { state.withLock { $0.contents.settings } }
        set {
            state.withLock {
                $0.contents.settings = DeviceSettings(
                    autoFillEnabled: newValue.autoFillEnabled, developerMode: newValue.developerMode,
                    managedDevice: newValue.managedDevice)
            }
        }
    }

    /// Adds a credential as Safari would have saved it (the attributes of SWC-5.1).
    /// - Throws: `duplicateItem` when it exists, `invalidParameter` for a bad field.
    public func seed(server: String, account: String, password: String, port: Int? = nil, comment: String = "default")
        throws(SWCredError)
    {
        var item = try InternetPasswordItem.sharedWebCredential(host: server, account: account, port: port, password: password)
        item.comment = comment
        try seed(item)
    }

    /// Adds any item (another access group, a non-synchronizable item, another protocol…).
    public func seed(_ item: InternetPasswordItem) throws(SWCredError) {
        let now = clock()
        try state.withLock { (state: inout State) throws(SWCredError) in
            try state.contents.add(item, at: now)
        }
    }

    /// Adds Safari's "Passwords not saved" entry for `host` (SWC-5.3).
    public func seedPasswordsNotSaved(host: String) throws(SWCredError) {
        let now = clock()
        try state.withLock { (state: inout State) throws(SWCredError) in
            try state.contents.add(.negativeEntry(server: host), at: now)
        }
    }

    /// Sets the site approval of the `webcredentials` record for (`appID`, `domain`), as a fetch of
    /// the site's association file would (AD-5.3). `domain` is written as in the entitlement
    /// (`example.com`, `example.com:8443`, `*.example.com`).
    public func setSiteApproval(_ site: SWCApprovalState, appID: String, domain: String) throws(SWCredError) {
        guard let entry = WebCredentialsEntry(parsing: "webcredentials:" + domain) else {
            throw SWCredError(.invalidParameter, "not a webcredentials domain: \(domain)")
        }
        let key = entry.recordKey(appID: appID)
        try state.withLock { (state: inout State) throws(SWCredError) in
            var record =
                state.contents.associationRecord(forKey: key)
                ?? AssociationRecord(
                    service: .webcredentials, appID: appID, host: key.host, port: key.port, isWildcard: key.isWildcard,
                    modes: entry.recordModes)
            record.siteApproval = site
            try state.contents.upsertAssociationRecord(record)
        }
    }

    /// Marks `domain` as approved by its site for `appID` (the site's file lists the app).
    public func approve(appID: String, domain: String) throws(SWCredError) {
        try setSiteApproval(.approved, appID: appID, domain: domain)
    }

    /// The approvals of the record for (`appID`, `domain`), `domain` written as in the entitlement.
    public func approval(appID: String, domain: String) -> SWCApproval? {
        guard let entry = WebCredentialsEntry(parsing: "webcredentials:" + domain) else { return nil }
        return state.withLock { $0.contents.sharedWebCredentialsApproval(for: entry.recordKey(appID: appID)) }
    }

    /// Makes the next `operation` fail with `error` (once), to test how failures reach the app.
    public func failNext(_ operation: Operation, with error: SWCredError) {
        state.withLock { $0.failures[operation] = error }
    }

    // MARK: SharedWebCredentialsBackend

    private func check(_ operation: Operation, _ state: inout State) throws(SWCredError) {
        if let error = state.failures.removeValue(forKey: operation) { throw error }
    }

    public func deviceSettings() async throws(SWCredError) -> SWCDeviceSettings {
        try state.withLock { (state: inout State) throws(SWCredError) in
            try check(.read, &state)
            return state.contents.settings
        }
    }

    public func items(matching query: ItemQuery) async throws(SWCredError) -> [InternetPasswordItem] {
        try state.withLock { (state: inout State) throws(SWCredError) in
            try check(.read, &state)
            return state.contents.items(matching: query)
        }
    }

    public func add(_ item: InternetPasswordItem) async throws(SWCredError) {
        let now = clock()
        try state.withLock { (state: inout State) throws(SWCredError) in
            try check(.add, &state)
            try state.contents.add(item, at: now)
        }
    }

    public func updatePassword(matching query: ItemQuery, secret: [UInt8], comment: String) async throws(SWCredError) {
        let now = clock()
        try state.withLock { (state: inout State) throws(SWCredError) in
            try check(.update, &state)
            try state.contents.updateSharedWebCredentials(matching: query, secret: secret, comment: comment, at: now)
        }
    }

    public func delete(matching query: ItemQuery) async throws(SWCredError) {
        try state.withLock { (state: inout State) throws(SWCredError) in
            try check(.delete, &state)
            try state.contents.deleteSharedWebCredentials(matching: query)
        }
    }

    public func approval(for key: AssociationRecord.Key) async throws(SWCredError) -> SWCApproval? {
        try state.withLock { (state: inout State) throws(SWCredError) in
            try check(.read, &state)
            return state.contents.sharedWebCredentialsApproval(for: key)
        }
    }

    public func setUserApproval(_ approval: SWCApprovalState, for key: AssociationRecord.Key) async throws(SWCredError) {
        try state.withLock { (state: inout State) throws(SWCredError) in
            try check(.setApproval, &state)
            try state.contents.setSharedWebCredentialsUserApproval(approval, for: key)
        }
    }
}
