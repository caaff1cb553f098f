
/// What an explicit fetch names (`swcred fetch ARGUMENT`): a site, or a URL that is not https.
package enum FetchTarget: Sendable, Hashable {
    case host(RetrievalHost)
    case insecure(String)

    /// Accepts `host`, `host:port`, or `https://host[:port][/]`; an `http://` URL is kept so the
    /// fetcher can refuse it by AD-4.2 and report that.
    /// - Throws: `invalidParameter` for a host that is not a plain host name or a port out of range.
    package init(argument: String) throws {
        let lower = argument.lowercased()
        if lower.hasPrefix("http://") {
            self = .insecure(argument)
            return
        }
        var text = argument
        if lower.hasPrefix("https://") {
            text = String(argument.dropFirst("https://".count))
            if text.hasSuffix("/") { text.removeLast() }
        }
        self = .host(try RetrievalHost(parsing: text))
    }
}
