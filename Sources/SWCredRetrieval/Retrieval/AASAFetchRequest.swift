/// Which URL an association file is fetched from (associated-domains.md AD-4.1).
///
/// Unlike `AssociationRoute` (what an entry requires, whatever the source), this is the HTTP
/// exchange the live fetcher performs: which URL, which headers and whether the legacy root is
/// tried. ``LiveAssociationSource/route(for:)`` derives it from the entry's route and the source
/// kind; `swcred fetch` picks it from its flags. The raw values are the `route` field of the
/// fetch report's JSON.
package enum RetrievalRoute: String, Sendable, Hashable, Codable, CaseIterable {
    /// Apple's CDN: `https://app-site-association.cdn-apple.com/a/v1/<host>[:<port>]`, with the
    /// `Apple-Proxied-Domain-Name` header; a 400–599 answer is `_SWCErrorDomain` 7.
    case cdn
    /// The site itself, `.well-known` only: the route of entries with an active `?mode=`
    /// (JSON `"direct"`).
    case wellKnownOnly = "direct"
    /// swcred's stand-in for the CDN when plain entries are read from the site itself: `.well-known`
    /// first, and only on HTTP 404 the legacy root `/apple-app-site-association`, with a warning
    /// (JSON `"origin"`).
    case wellKnownThenLegacyRoot = "origin"
}

/// One association file to fetch.
package struct AASAFetchRequest: Sendable, Hashable {
    /// The host (and port) whose file is wanted: an entry's `aasaHost`.
    package var host: RetrievalHost
    /// The route.
    package var route: RetrievalRoute
    /// Whether user-installed roots (`--ca-file`) may vouch for the server: true for
    /// `?mode=developer` entries on a device in developer mode, and for an explicit command-line
    /// fetch (AD-4.3). When they are used, the report says so.
    package var allowUserInstalledRoots: Bool

    /// Creates a request.
    package init(host: RetrievalHost, route: RetrievalRoute, allowUserInstalledRoots: Bool = false) {
        self.host = host
        self.route = route
        self.allowUserInstalledRoots = allowUserInstalledRoots
    }
}
