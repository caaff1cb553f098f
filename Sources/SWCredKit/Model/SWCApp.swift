/// The app on whose behalf Shared Web Credentials calls run (AD-1.1).
///
/// Example:
/// ```swift
/// let app = SWCApp(
///     appID: "ABCDE12345.com.example.app",
///     associatedDomains: ["webcredentials:example.com", "applinks:example.com"],
///     displayName: "Example")
/// ```
public struct SWCApp: Sendable, Hashable {
    /// `<prefix>.<bundle id>`, the `application-identifier` entitlement; `nil` when the app has
    /// none (every add then fails with `errSecMissingEntitlement`).
    public var appID: String?
    /// The raw `com.apple.developer.associated-domains` array, in entitlement order.
    public var associatedDomains: [String]
    /// The name shown in prompts.
    public var displayName: String
    /// The app is development-signed (`get-task-allow`); with developer mode on, `?mode=developer`
    /// entries apply.
    public var developmentSigned: Bool
    /// The app receives MDM-managed domains; on a managed device, `?mode=managed` entries apply.
    public var receivesManagedDomains: Bool

    /// Creates an app identity.
    /// - Parameters:
    ///   - appID: `<TeamID>.<bundle id>`, or `nil` for an app without the entitlement.
    ///   - associatedDomains: the entitlement's strings, in order.
    ///   - displayName: the name shown in prompts; defaults to the last part of the bundle id.
    ///   - developmentSigned: whether the app is development-signed.
    ///   - receivesManagedDomains: whether MDM-managed domains apply to the app.
    public init(
        appID: String?,
        associatedDomains: [String],
        displayName: String? = nil,
        developmentSigned: Bool = false,
        receivesManagedDomains: Bool = false
    ) {
        self.appID = appID
        self.associatedDomains = associatedDomains
        self.displayName = displayName ?? appID.flatMap { $0.split(separator: ".").last.map(String.init) } ?? "App"
        self.developmentSigned = developmentSigned
        self.receivesManagedDomains = receivesManagedDomains
    }

    /// The well-formed `webcredentials` entries, in entitlement order, duplicates collapsed.
    package var webCredentialsEntries: [WebCredentialsEntry] {
        var seen = Set<WebCredentialsEntry>()
        var result: [WebCredentialsEntry] = []
        for raw in associatedDomains {
            guard let entry = WebCredentialsEntry(parsing: raw), seen.insert(entry).inserted else { continue }
            result.append(entry)
        }
        return result
    }
}
