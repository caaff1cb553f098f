import SWCredAssociation
import SWCredCore
import SWCredKit
import SWCredRetrieval

extension SWCAppSession {
    /// The command's app on the command's store (`request`, the app path of `add`, `batch`, the
    /// passkey commands): the store opened or created once, and when an association source is
    /// given, the app installed in the emulated daemon and its records refreshed from it.
    static func open(
        storeOptions: GlobalStoreOptions, app: AppOptions, source: SourceOptions, console: Console, simulator: Bool
    ) async throws(SWCredError) -> SWCAppSession {
        var configuration = SWCConfiguration(simulator: simulator)
        configuration.forceDeveloperMode = app.device.developerMode
        configuration.forceManagedDevice = app.device.managed
        let entitlements = try app.loadEntitlements()
        let session = try SWCAppSession.open(
            session: try storeOptions.session(console), appID: app.appID, entitlements: entitlements,
            configuration: configuration)
        guard source.selectedKind != nil else { return session }
        guard entitlements != nil else { throw SWCredError(.usage, "an association source needs --entitlements FILE or --app PATH") }
        let device = app.device.settings
        do {
            guard let selection = try source.selection() else { return session }
            _ = try await AssociationSources.with(selection, device: device) { fileSource in
                try await session.refresh(from: fileSource, device: device)
            }
        } catch let error as SWCredError {
            throw error
        } catch {
            throw SWCredError(.internalError, "could not set up the association source: \(error)")
        }
        return session
    }
}
