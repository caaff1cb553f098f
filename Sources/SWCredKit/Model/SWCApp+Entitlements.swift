public import SWCredAssociation
public import SWCredCore

extension SWCApp {
    /// The app described by a parsed entitlements file.
    ///
    /// - Parameters:
    ///   - entitlements: the parsed file (`application-identifier`, associated domains, `get-task-allow`).
    ///   - appID: overrides the file's `application-identifier` (the CLI's `--app-id`).
    ///   - displayName: the name shown in prompts.
    ///   - receivesManagedDomains: whether MDM-managed domains apply to the app.
    public init(
        entitlements: Entitlements, appID: String? = nil, displayName: String? = nil,
        receivesManagedDomains: Bool = false
    ) {
        self.init(
            appID: appID ?? entitlements.applicationIdentifier,
            associatedDomains: entitlements.entries.map(\.raw),
            displayName: displayName,
            developmentSigned: entitlements.developmentSigned,
            receivesManagedDomains: receivesManagedDomains)
    }

    /// Reads the app from an entitlements file (XML or binary plist, or a JSON object).
    /// - Throws: `fileNotFound` (66) or `malformedEntitlements` (65).
    public static func load(
        entitlementsPath: String, appID: String? = nil, displayName: String? = nil
    ) throws(SWCredError) -> SWCApp {
        SWCApp(entitlements: try Entitlements.load(path: entitlementsPath), appID: appID, displayName: displayName)
    }
}
