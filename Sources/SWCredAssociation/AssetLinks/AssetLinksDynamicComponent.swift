/// One element of `relation_extensions["delegate_permission/common.handle_all_urls"]
/// .dynamic_app_link_components` (Android 15+ dynamic App Links; asset-links.md §1.1): URL
/// components like AASA's. swcred reads them for lint; it does not match URLs against them.
package struct AssetLinksDynamicComponent: Sendable, Hashable {
    /// The `/` path pattern.
    package var path: String?
    /// The `?` query item patterns, by name.
    package var query: [String: String]
    /// The `#` fragment pattern.
    package var fragment: String?
    /// Whether matching URLs are excluded.
    package var exclude: Bool

    /// Creates a component.
    package init(path: String? = nil, query: [String: String] = [:], fragment: String? = nil, exclude: Bool = false) {
        self.path = path
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
    }
}
