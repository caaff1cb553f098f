/// The asset whose statement list is read: a site (its `/.well-known/assetlinks.json`) or an
/// Android app (its `asset_statements`). Both an `https` site and an app are secure: their
/// includes must be `https` (DAL-I1).
package enum AssetLinksSource: Sendable, Hashable, CustomStringConvertible {
    /// A web site.
    case web(AssetLinksSite)
    /// An Android app.
    case androidApp(AndroidAppIdentity)

    /// Whether includes must be `https`.
    package var isSecure: Bool {
        switch self {
        case .web(let site): site.isSecure
        case .androidApp: true
        }
    }

    package var description: String {
        switch self {
        case .web(let site): site.description
        case .androidApp(let app): "android_app \(app.packageName)"
        }
    }

    /// Where the source's own list is read from, for problems and statement origins.
    package var listName: String {
        switch self {
        case .web(let site): site.statementListURL
        case .androidApp(let app): "\(app.packageName) asset_statements"
        }
    }
}
