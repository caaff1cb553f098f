/// A web asset of Digital Asset Links: one (scheme, host, port), written
/// `http[s]://<host>[:<port>]` (asset-links.md §1.1, DAL-S5).
///
/// A site covers exactly its scheme, host and port: never a subdomain, never the other scheme.
/// Scheme and host compare without case, a trailing dot on the host and a written default port
/// change nothing (Google's suite 2204, 2205, 4403). A lone trailing `/` is where the verifiers
/// part: Google's API refuses it ("cannot contain a path", 2212), an AOSP device accepts it
/// (`WebAsset.java`); ``Parsed/trailingSlash`` tells the caller which it met.
///
/// ```swift
/// let site = try AssetLinksSite.parse("HTTPS://Example.com:443").get().site
/// site.description  // "https://example.com"
/// ```
package struct AssetLinksSite: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    package let scheme: String
    /// The host, lower-cased, without a trailing dot.
    package let host: String
    /// The port, `nil` for the scheme's default.
    package let port: Int?

    /// Why a `site` was refused.
    package enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// The string is empty.
        case empty
        /// Not a URL: no scheme, a bad host or port (the reason says which).
        case notURL(String)
        /// A scheme other than `http` or `https`.
        case nonHTTP
        /// `user:password@` in the authority.
        case loginInfo
        /// A `?query`.
        case query
        /// A `#fragment`.
        case fragment
        /// A path other than a lone `/`.
        case path

        package var description: String {
            switch self {
            case .empty: "no site field (the site is empty)"
            case .notURL(let why): "the site is not a valid URL: \(why)"
            case .nonHTTP: "the site is a non-HTTP URL (only http and https sites exist)"
            case .loginInfo: "the site contains login information (user:password@)"
            case .query: "the site contains query parameters"
            case .fragment: "the site contains fragment identifiers"
            case .path: "the site cannot contain a path"
            }
        }
    }

    /// A site as read, with the spellings the verifiers treat differently or lint warns about.
    package struct Parsed: Sendable, Hashable {
        /// The site.
        package let site: AssetLinksSite
        /// A lone `/` followed the authority: refused by Google's API, accepted by an AOSP device.
        package let trailingSlash: Bool
        /// The scheme's default port was written out.
        package let explicitDefaultPort: Bool
    }

    /// Creates a site from its parts; `port` is dropped when it is the scheme's default.
    package init(scheme: String, host: String, port: Int? = nil) {
        self.scheme = scheme
        self.host = host
        self.port = (scheme == "https" && port == 443) || (scheme == "http" && port == 80) ? nil : port
    }

    /// Parses a `site` value, accepting a lone trailing `/` (reported in ``Parsed/trailingSlash``).
    package static func parse(_ text: String) -> Result<Parsed, Problem> {
        let url: AssetLinksURL
        switch AssetLinksURL.parse(text) {
        case .success(let parsed): url = parsed
        case .failure(let problem): return .failure(problem)
        }
        if url.query != nil { return .failure(.query) }
        if url.hasFragment { return .failure(.fragment) }
        guard url.path.isEmpty || url.path == "/" else { return .failure(.path) }
        return .success(
            Parsed(
                site: AssetLinksSite(scheme: url.scheme, host: url.host, port: url.port),
                trailingSlash: url.path == "/", explicitDefaultPort: url.explicitDefaultPort))
    }

    /// Whether the site is `https`: its includes must be `https` too (DAL-I1).
    package var isSecure: Bool { scheme == "https" }

    /// `https://<host>[:<port>]`.
    package var description: String { "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")" }

    /// Where the site's statement list is served: `<site>/.well-known/assetlinks.json`.
    package var statementListURL: String { "\(description)/.well-known/assetlinks.json" }
}
