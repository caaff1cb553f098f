/// The result of `swcred verify` over an iOS app, Android apps, or both: every row (iOS entries,
/// Android hosts × apps × relations) and, when Android apps were checked, the cross-platform
/// table (cli.md, "Android apps and related origins"; DAL-Q1, DAL-Q6).
package struct CrossPlatformTrustReport: Sendable, Hashable, Encodable {
    /// The iOS app checked, `null` without `--entitlements`.
    package var appID: String?
    /// The Android apps checked, by package name.
    package var androidApps: [String]
    /// Every row is trusted, and there is at least one.
    package var trusted: Bool
    /// The iOS rows in entitlement order, then the Android rows by host, app and relation.
    package var associations: [PlatformAssociation]
    /// One row per host and Android app; `nil` (absent from JSON) when no Android app was checked
    /// or `--service` narrowed the check.
    package var crossPlatform: [CrossPlatformRow]?
    /// With `--android-manifest`: what the manifest and strings gave, and their findings.
    package var androidManifest: AndroidManifestReport?

    private enum CodingKeys: String, CodingKey {
        case appID, androidApps, trusted, associations, crossPlatform, androidManifest
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(appID, forKey: .appID)
        try container.encode(androidApps, forKey: .androidApps)
        try container.encode(trusted, forKey: .trusted)
        try container.encode(associations, forKey: .associations)
        try container.encodeIfPresent(crossPlatform, forKey: .crossPlatform)
        try container.encodeIfPresent(androidManifest, forKey: .androidManifest)
    }
}
