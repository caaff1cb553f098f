/// What `verify --android-manifest` read from the app's manifest and strings, and its findings
/// (DAL-Q2, DAL-Q5): the `"androidManifest"` object of `verify`'s JSON.
package struct AndroidManifestReport: Sendable, Hashable, Encodable {
    /// The manifest's package (`<manifest package>`), `null` when absent.
    package var package: String?
    /// The hosts a device verifies, as written (`*.` hosts included), in document order.
    package var verifiedHosts: [String]
    /// The `asset_statements` string's include URLs, in order.
    package var includes: [String]
    /// The findings, in the order met; an Android ≤ 11 "all or none" finding comes last.
    package var findings: [Diagnostic]

    /// The report of `manifest`, before any host is checked.
    package init(_ manifest: AndroidManifest) {
        package = manifest.packageName
        verifiedHosts = manifest.verifiedHosts
        includes = manifest.assetStatementIncludes.map(\.description)
        findings = manifest.findings
    }
}
