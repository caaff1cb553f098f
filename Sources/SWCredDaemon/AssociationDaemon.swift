public import Foundation
public import SWCredAssociation
public import SWCredCore
public import SWCredStore

/// The emulated association daemon (associated-domains.md §5): one record per (service, app ID,
/// domain), created when an app is installed and refreshed from an association source on request.
///
/// **Decision (AD-5.6):** there is no background process and no hidden network. Records change only
/// through ``install(app:into:reinstall:)``, ``refresh(_:force:)`` + ``apply(_:to:)`` and
/// ``reset(_:appID:)``; matching and credential operations read stored records and never fetch.
///
/// Network work happens outside the store's lock: ``refresh(_:force:)`` takes a snapshot of
/// records and returns updated copies; ``apply(_:to:)`` writes them in a store transaction,
/// keeping the user approval that is in the store at that moment (it changes only through user
/// actions, AD-5.4).
///
/// ```swift
/// let daemon = AssociationDaemon(source: DirectoryAssociationSource(root: "sites"))
/// try store.transaction { contents in try daemon.install(app: app, into: &contents) }
/// let outcomes = await daemon.refresh(try store.snapshot().contents.associationRecords)
/// try store.transaction { contents in try AssociationDaemon.apply(outcomes, to: &contents) }
/// ```
public struct AssociationDaemon: Sendable {
    /// Where files come from (`dir`, `direct`, `cdn`).
    public var source: any AssociationFileSource
    /// The clock; tests pass a `TestStoreClock` and never sleep.
    public var clock: any StoreClock
    /// Recheck delays (AD-5.5).
    public var policy: RecheckPolicy
    /// The random part of recheck delays.
    public var jitter: any RecheckJitter
    /// The device's settings, for mode gating at install.
    public var device: DeviceSettings
    /// Parser limits for retrieved files.
    public var limits: AssociationFile.Limits

    /// Creates a daemon.
    public init(
        source: any AssociationFileSource,
        clock: any StoreClock = LiveStoreClock(),
        policy: RecheckPolicy = RecheckPolicy(),
        jitter: any RecheckJitter = SystemRecheckJitter(),
        device: DeviceSettings = .init(),
        limits: AssociationFile.Limits = .init()
    ) {
        self.source = source
        self.clock = clock
        self.policy = policy
        self.jitter = jitter
        self.device = device
        self.limits = limits
    }

    // MARK: - Lifecycle (AD-5.2)

    /// The records an app's entitlement calls for: one per active entry of a known service, both
    /// approvals `unspecified`, never checked, next check now.
    public func records(for app: AppIdentity) -> [AssociationRecord] {
        let now = clock.now()
        var seen: Set<AssociationRecord.Key> = []
        var records: [AssociationRecord] = []
        for resolved in EntitlementResolver.resolve(app.entitlements, device: device) where resolved.active {
            guard let domain = resolved.domain,
                let service = AssociationRecord.Service(rawValue: domain.service.rawValue),
                let port = Self.storePort(domain.port)
            else { continue }
            let record = AssociationRecord(
                service: service,
                appID: app.appID,
                host: domain.host,
                port: port,
                isWildcard: domain.wildcard,
                modes: Self.storeModes(domain.modes),
                userApproval: .unspecified,
                siteApproval: .unspecified,
                lastChecked: .distantPast,
                nextCheck: now,
                retryCount: 0,
                lastError: nil,
                source: .downloaded
            )
            if seen.insert(record.key).inserted { records.append(record) }
        }
        return records
    }

    /// Installs `app` (or applies a changed entitlement): creates a record for each active entry
    /// that has none, updates the modes of those that exist, and removes the app's records whose
    /// entries are gone. With `reinstall`, every record of the app is deleted and recreated first
    /// ("To download a newer version of the AASA file, reinstall the app", TN3155).
    ///
    /// - Returns: the app's records after the change.
    /// - Throws: the store's `invalidParameter` / `limitExceeded` for records it refuses.
    @discardableResult
    public func install(app: AppIdentity, into contents: inout StoreContents, reinstall: Bool = false)
        throws(SWCredError) -> [AssociationRecord]
    {
        let wanted = records(for: app)
        let wantedKeys = Set(wanted.map(\.key))
        for existing in contents.associationRecords(appID: app.appID)
        where reinstall || !wantedKeys.contains(existing.key) {
            try contents.removeAssociationRecord(forKey: existing.key)
        }
        for record in wanted {
            if var existing = contents.associationRecord(forKey: record.key) {
                existing.modes = record.modes
                try contents.upsertAssociationRecord(existing)
            } else {
                try contents.upsertAssociationRecord(record)
            }
        }
        return contents.associationRecords(appID: app.appID)
    }

    /// Deletes every record, or every record of `appID` (`swcutil reset`).
    ///
    /// - Returns: how many records were deleted.
    @discardableResult
    public static func reset(_ contents: inout StoreContents, appID: String? = nil) -> Int {
        var removed = 0
        for record in contents.associationRecords(appID: appID) {
            if (try? contents.removeAssociationRecord(forKey: record.key)) != nil { removed += 1 }
        }
        return removed
    }

    // MARK: - Refresh (AD-5.3, AD-5.5, AD-5.6)

    /// One record's refresh.
    public struct Outcome: Sendable, Hashable {
        /// The record as it will be stored.
        public var record: AssociationRecord
        /// False when the record was not due and not forced (then ``record`` is unchanged).
        public var checked: Bool
        /// The HTTP exchange, when the source had one.
        public var fetch: FetchReport?
        /// What the retrieval and the decision noticed.
        public var diagnostics: [Diagnostic]
    }

    /// Checks every record that is due (`nextCheck <= now`), or every record with `force`.
    ///
    /// Records that share an origin and route share one retrieval (AD-4.8). After a file parsed,
    /// site approval becomes `approved` when the file lists the app for the record's service and
    /// `denied` otherwise, the error is cleared and retries reset; after a failure, site approval
    /// stays, the error is recorded and retries grow (AD-5.3, Decision). The next check follows
    /// ``policy`` (AD-5.5).
    ///
    /// - Returns: one outcome per input record, in input order.
    public func refresh(_ records: [AssociationRecord], force: Bool = false) async -> [Outcome] {
        let now = clock.now()
        let evaluator = TrustEvaluator(source: source, device: device, limits: limits)
        var retrievals: [AssociationFileRequest: TrustEvaluator.Retrieval] = [:]
        var outcomes: [Outcome] = []
        for record in records {
            guard force || record.nextCheck <= now else {
                outcomes.append(Outcome(record: record, checked: false, fetch: nil, diagnostics: []))
                continue
            }
            let request = Self.request(for: record)
            let retrieval: TrustEvaluator.Retrieval
            if let cached = retrievals[request] {
                retrieval = cached
            } else {
                retrieval = await evaluator.retrieve(request)
                retrievals[request] = retrieval
            }
            outcomes.append(update(record, with: retrieval, now: now))
        }
        return outcomes
    }

    /// The new state of `record` after `retrieval` at `now`.
    public func update(_ record: AssociationRecord, with retrieval: TrustEvaluator.Retrieval, now: Date) -> Outcome {
        var next = record
        next.lastChecked = now
        var diagnostics = retrieval.retrieved.diagnostics
        if let file = retrieval.file {
            let listed = file.lists(appID: record.appID, for: AssociationService(rawValue: record.service.rawValue))
            next.siteApproval = listed ? .approved : .denied
            next.lastError = nil
            next.retryCount = 0
            next.nextCheck = now.addingTimeInterval(policy.delayAfterSuccess(jitter: jitter.next()))
            next.lastFile = AssociationRecord.FileInfo(digest: [], size: UInt64(file.json.count), retrievedAt: now)
            diagnostics.append(
                listed
                    ? .note("\(record.service.rawValue) lists \(record.appID): site approved")
                    : .warning("\(record.service.rawValue) does not list \(record.appID): site denied")
            )
        } else {
            let failure = retrieval.retrieved.failure
            let message = failure?.message ?? retrieval.problem ?? "no file"
            next.lastError = AssociationRecord.LastError(
                domain: Self.truncated(
                    failure?.domain ?? (retrieval.retrieved.body == nil ? "swcred" : "NSCocoaErrorDomain"), 256),
                code: Int64(failure?.code ?? 3840),
                message: Self.truncated(failure == nil ? (retrieval.problem ?? message) : message, 1024)
            )
            next.retryCount = record.retryCount == .max ? .max : record.retryCount + 1
            let decided = record.siteApproval != .unspecified
            next.nextCheck = now.addingTimeInterval(
                policy.delayAfterFailure(
                    retryCount: next.retryCount, siteApprovalDecided: decided, jitter: jitter.next())
            )
            diagnostics.append(.error(retrieval.problem ?? message))
        }
        return Outcome(record: next, checked: true, fetch: retrieval.retrieved.fetch, diagnostics: diagnostics)
    }

    /// Writes checked outcomes into `contents`, keeping the stored user approval; records deleted
    /// meanwhile are not recreated.
    ///
    /// - Returns: how many records were written.
    @discardableResult
    public static func apply(_ outcomes: [Outcome], to contents: inout StoreContents) throws(SWCredError) -> Int {
        var written = 0
        for outcome in outcomes where outcome.checked {
            guard let current = contents.associationRecord(forKey: outcome.record.key) else { continue }
            var record = outcome.record
            record.userApproval = current.userApproval
            try contents.upsertAssociationRecord(record)
            written += 1
        }
        return written
    }

    /// The retrieval a record needs: its host (for `*.host`, the host itself is the root, AD-4.1),
    /// port, and the mode route for entries with modes.
    public static func request(for record: AssociationRecord) -> AssociationFileRequest {
        AssociationFileRequest(
            host: record.host,
            port: record.port.map(Int.init),
            route: record.modes.isEmpty ? .standard : .modeDirect
        )
    }

    package static func storeModes(_ modes: AssociationModes) -> Set<AssociationRecord.Mode> {
        var result: Set<AssociationRecord.Mode> = []
        if modes.contains(.developer) { result.insert(.developer) }
        if modes.contains(.managed) { result.insert(.managed) }
        return result
    }

    /// nil for an out-of-range port (the entry is skipped); `.some(nil)` for no port.
    static func storePort(_ port: Int?) -> UInt16?? {
        guard let port else { return .some(nil) }
        guard let value = Port(port) else { return nil }
        return .some(value.value)
    }

    static func truncated(_ text: String, _ limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        var used = 0
        for character in text {
            let size = String(character).utf8.count
            if used + size > limit - 3 { break }
            result.append(character)
            used += size
        }
        return result + "..."
    }
}
