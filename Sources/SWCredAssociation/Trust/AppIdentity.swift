public import SWCredCore

/// The emulated app (AD-1.1): its application identifier and its entitlements.
public struct AppIdentity: Sendable, Hashable {
    /// `<prefix>.<bundle id>`, compared exactly (AD-6.4).
    public var appID: String
    /// The parsed entitlements.
    public var entitlements: Entitlements

    /// Creates an identity; `appID` defaults to the entitlements' `application-identifier`.
    ///
    /// - Throws: `SWCredError.Code.usage` (exit 64) when neither gives an app ID.
    public init(appID: String? = nil, entitlements: Entitlements) throws(SWCredError) {
        guard let id = appID ?? entitlements.applicationIdentifier, !id.isEmpty else {
            throw SWCredError(.usage, "no app ID: pass --app-id or add application-identifier to the entitlements")
        }
        self.appID = id
        self.entitlements = entitlements
    }

    /// Whether `appID` has the `<10 alphanumerics>.<bundle id>` shape Apple issues.
    public static func isWellFormed(_ appID: String) -> Bool {
        let parts = appID.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 10, !parts[1].isEmpty else { return false }
        let prefixOK = parts[0].unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
        let bundleOK = parts[1].unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-"
        }
        return prefixOK && bundleOK && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
    }
}
