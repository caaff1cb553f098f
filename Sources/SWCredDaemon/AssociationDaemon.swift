package import FoundationEssentials
package import SWCredAssociation
package import SWCredCore
package import SWCredStore

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
package struct AssociationDaemon: Sendable {
    /// Where files come from (`dir`, `direct`, `cdn`).
    package var source: any AssociationFileSource
    /// The clock; tests pass a `TestStoreClock` and never sleep.
    package var clock: any StoreClock
    /// Recheck delays (AD-5.5).
    package var policy: RecheckPolicy
    /// The random part of recheck delays.
    package var jitter: any RecheckJitter
    /// The device's settings, for mode gating at install.
    package var device: DeviceSettings
    /// Parser limits for retrieved files.
    package var limits: AssociationFile.Limits

    /// Creates a daemon.
    package init(
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
    package func records(for app: AppIdentity) -> [AssociationRecord] {
        Self.records(for: app, device: device, now: clock.now())
    }

    /// Installs `app` (or applies a changed entitlement): creates a record for each active entry
    /// that has none, updates the modes of those that exist, and removes the app's records whose
    /// entries are gone. With `reinstall`, every record of the app is deleted and recreated first
    /// ("To download a newer version of the AASA file, reinstall the app", TN3155).
    ///
    /// - Returns: the app's records after the change.
    /// - Throws: the store's `invalidParameter` / `limitExceeded` for records it refuses.
    @discardableResult
    package func install(app: AppIdentity, into contents: inout StoreContents, reinstall: Bool = false)
        throws(SWCredError) -> [AssociationRecord]
    {
        try Self.install(records(for: app), of: app.appID, into: &contents, reinstall: reinstall)
    }

    /// Deletes every record, or every record of `appID` (`swcutil reset`).
    ///
    /// - Returns: how many records were deleted.
    @discardableResult
    package static func reset(_ contents: inout StoreContents, appID: String? = nil) -> Int {
        var removed = 0
        for record in contents.associationRecords(appID: appID) {
            if (try? contents.removeAssociationRecord(forKey: record.key)) != nil { removed += 1 }
        }
        return removed
    }

    // MARK: - Refresh (AD-5.3, AD-5.5, AD-5.6)

    /// One record's refresh.
    package struct Outcome: Sendable, Hashable {
        /// The record as it will be stored.
        package var record: AssociationRecord
        /// False when the record was not due and not forced (then ``record`` is unchanged).
        package var checked: Bool
        /// The HTTP exchange, when the source had one.
        package var fetch: FetchReport?
        /// What the retrieval and the decision noticed.
        package var diagnostics: [Diagnostic]
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
    package func refresh(_ records: [AssociationRecord], force: Bool = false) async -> [Outcome] {
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
    package func update(_ record: AssociationRecord, with retrieval: TrustEvaluator.Retrieval, now: Date) -> Outcome {
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
    package static func apply(_ outcomes: [Outcome], to contents: inout StoreContents) throws(SWCredError) -> Int {
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
    package static func request(for record: AssociationRecord) -> AssociationFileRequest {
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
