package import SWCredAssociation
package import SWCredCore
package import SWCredStore

/// One app on one store: the app path that `swcred add`, `request`, `batch` and the passkey
/// commands share.
///
/// ``open(session:appID:entitlements:configuration:)`` opens the store once through its
/// `StoreSession` — created on first use (cli.md: the first add just works), one passphrase read
/// and one key derivation for a passphrase store — and verifies the whole file, so that a damaged
/// store fails with its own code before anything is asked. ``refresh(from:device:)`` installs the
/// app in the emulated association daemon and refreshes its records from a source, as a device
/// does when an app is installed; without it the stored records are used.
package struct SWCAppSession: Sendable {
    /// The opened store.
    package let backend: StoreBackend
    /// The calling app.
    package let app: SWCApp
    /// The parsed entitlements the app was built from, if any (`--app-id` alone has none).
    package let entitlements: Entitlements?
    /// The environment of the calls (profile, simulator, the forced device switches).
    package let configuration: SWCConfiguration

    /// Opens (or creates) the store of `session` and builds the app.
    /// - Throws: the store's errors.
    package static func open(
        session: StoreSession, appID: String?, entitlements: Entitlements?, configuration: SWCConfiguration
    ) throws(SWCredError) -> SWCAppSession {
        let app = entitlements.map { SWCApp(entitlements: $0, appID: appID) }
            ?? SWCApp(appID: appID, associatedDomains: [])  // an app with no associated domains
        let store = try session.storeCreatingIfMissing()
        _ = try session.read()
        return SWCAppSession(
            backend: StoreBackend(store: store), app: app, entitlements: entitlements, configuration: configuration)
    }

    /// Installs the app in the emulated association daemon and refreshes its records from `source`
    /// (AD-5.2, AD-5.3; the fetches run outside the store's lock).
    /// - Returns: the number of records checked.
    /// - Throws: `usage` when the app has no entitlements to install; the store's errors.
    @discardableResult
    package func refresh(from source: any AssociationFileSource, device: DeviceSettings)
        async throws(SWCredError) -> Int
    {
        guard let entitlements else {
            throw SWCredError(.usage, "an association source needs the app's entitlements")
        }
        let identity = try AppIdentity(appID: app.appID, entitlements: entitlements)
        return try await backend.installAndRefresh(app: identity, source: source, device: device)
    }

    /// The Shared Web Credentials API for the app on `backend` (the store, or a batch's open
    /// transaction), with `responder` as the user and `profile` instead of the configuration's.
    package func service(
        responder: any SWCPromptResponder, profile: SWCProfile? = nil,
        on backend: (any SharedWebCredentialsBackend)? = nil
    ) -> SharedWebCredentials {
        var configuration = self.configuration
        if let profile { configuration.profile = profile }
        return SharedWebCredentials(
            backend: backend ?? self.backend, app: app, responder: responder, configuration: configuration)
    }
}
