package import SWCredAssociation
package import SWCredCore
package import SWCredStore

/// What `swcutil` does to the emulated daemon's records, as one call (`swcred associations`):
/// reset, install an app, refresh from a source, and list (AD-5.2 to AD-5.6).
///
/// **Decision (AD-5.6, no hidden network):** records change only when asked. Without a change the
/// store is only read, and a missing store lists nothing; with one the store is created first.
/// The device is the store's settings with ``forceDeveloperMode`` / ``forceManagedDevice`` turned
/// on. A refresh retrieves outside the store's lock and writes the outcomes in one transaction.
package struct AssociationSync: Sendable {
    /// Delete the records (of ``appID`` only, when given) before anything else.
    package var reset = false
    /// The app to install, if any.
    package var install: AppIdentity?
    /// With ``install``: delete and recreate the app's records.
    package var reinstall = false
    /// With a source: check every record, not only those that are due.
    package var force = false
    /// Only records of this app (reset, refresh, list).
    package var appID: String?
    /// Only records of this service (refresh, list).
    package var service: AssociationRecord.Service?
    package var forceDeveloperMode = false
    package var forceManagedDevice = false

    package init() {}

    /// What the sync did, and the records after it.
    package struct Report: Sendable {
        /// The stored records of ``AssociationSync/appID`` and ``AssociationSync/service``.
        package var records: [AssociationRecord] = []
        package var checked = 0
        package var installed = 0
        package var removed = 0
        /// What the checks noticed (notes left out), with the record checked.
        package var diagnostics: [(record: AssociationRecord, diagnostic: Diagnostic)] = []
    }

    /// Opens a source for the device's settings for as long as `body` runs (the caller's factory of
    /// sources, which shuts its clients down on every path).
    package typealias SourceScope = (
        _ device: DeviceSettings,
        _ body: (any AssociationFileSource) async -> [AssociationDaemon.Outcome]
    ) async throws -> [AssociationDaemon.Outcome]

    /// Runs the sync on the store of `session`; with `source`, the records due (all with
    /// ``force``) are refreshed from it.
    /// - Throws: the store's errors; what `source` throws.
    package func run(session: StoreSession, source: SourceScope?) async throws -> Report {
        var report = Report()
        let changes = reset || install != nil || source != nil
        var settings = DeviceSettings()
        if changes {
            _ = try session.storeCreatingIfMissing()
            settings = try session.read().contents.settings
        }
        let device = DeviceSettings(
            developerMode: forceDeveloperMode || settings.developerMode,
            managedDevice: forceManagedDevice || settings.managedDevice)
        let appID = self.appID
        if reset {
            report.removed = try session.modify(createIfMissing: false) { contents, _ in
                AssociationDaemon.reset(&contents, appID: appID)
            }
        }
        if let install {
            let wanted = AssociationDaemon.records(for: install, device: device, now: LiveStoreClock().now())
            let reinstall = self.reinstall
            report.installed = try session.modify(createIfMissing: true) {
                (contents: inout StoreContents, _) throws(SWCredError) -> Int in
                try AssociationDaemon.install(wanted, of: install.appID, into: &contents, reinstall: reinstall).count
            }
        }
        if let source {
            let due = filter(try session.read().contents.associationRecords)
            let force = self.force
            let outcomes = try await source(device) { fileSource in
                await AssociationDaemon(source: fileSource, device: device).refresh(due, force: force)
            }
            report.checked = outcomes.filter(\.checked).count
            _ = try session.modify(createIfMissing: false) {
                (contents: inout StoreContents, _) throws(SWCredError) -> Int in
                try AssociationDaemon.apply(outcomes, to: &contents)
            }
            for outcome in outcomes where outcome.checked {
                for diagnostic in outcome.diagnostics where diagnostic.severity != .note {
                    report.diagnostics.append((outcome.record, diagnostic))
                }
            }
        }
        do throws(SWCredError) {
            report.records = filter(try session.read().contents.associationRecords)
        } catch {
            guard !changes, error.code == .storeNotFound else { throw error }
        }
        return report
    }

    /// The records of ``appID`` and ``service``.
    package func filter(_ records: [AssociationRecord]) -> [AssociationRecord] {
        records.filter { record in
            (appID.map { record.appID == $0 } ?? true) && (service.map { record.service == $0 } ?? true)
        }
    }
}
