/// The target of a statement: a web site or an Android app (asset-links.md §1.1, DAL-S4).
package enum AssetLinksTarget: Sendable, Hashable, CustomStringConvertible {
    /// `{"namespace": "web", "site": …}`.
    case web(AssetLinksSite)
    /// `{"namespace": "android_app", "package_name": …, "sha256_cert_fingerprints": […]}`: the
    /// fingerprints exactly as written (a device compares them as strings, not normalised).
    case androidApp(packageName: String, fingerprints: [String])

    package var description: String {
        switch self {
        case .web(let site): "web \(site)"
        case .androidApp(let packageName, let fingerprints):
            "android_app \(packageName) [\(fingerprints.joined(separator: ", "))]"
        }
    }
}
