public import SWCredAssociation
public import SWCredCore
import SWCredDaemon
import SWCredStore

extension StoreBackend {
    /// Installs `app` in the emulated association daemon and refreshes its records from `source`,
    /// as a device does when an app is installed (`spec/cli.md`: "When add or request is given a
    /// source, the association records of that app's domains are refreshed from it first").
    ///
    /// The fetches run outside the store's lock; the results are written in one transaction that
    /// keeps the user approvals in the store at that moment (AD-5.4).
    /// - Returns: the number of records checked.
    /// - Throws: the store's errors.
    @discardableResult
    public func installAndRefresh(
        app: AppIdentity, source: any AssociationFileSource, device: DeviceSettings
    ) async throws(SWCredError) -> Int {
        let daemon = AssociationDaemon(source: source, device: device)
        let store = self.store
        let records: [AssociationRecord] = try await runBlocking {
            try store.transaction { contents, _ in try daemon.install(app: app, into: &contents) }
        }
        let outcomes = await daemon.refresh(records, force: true)
        // `apply` returns how many records it wrote; the count reported is of the records checked.
        _ = try await runBlocking {
            try store.transaction { contents, _ in try AssociationDaemon.apply(outcomes, to: &contents) }
        }
        return outcomes.filter(\.checked).count
    }
}
