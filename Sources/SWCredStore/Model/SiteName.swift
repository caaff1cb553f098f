package import SWCredCore

/// A site as a person names it (`swcred add|show|list|delete DOMAIN`): `HOST` or `HOST:PORT`,
/// canonicalised the way the Shared Web Credentials layer stores servers (store.md §2.1:
/// lowercased host), for an ``InternetPasswordItem`` or an ``ItemQuery``.
///
/// Rules: the host is a ``HostName`` of the URL-host syntax (ASCII only, IDN hosts given as
/// A-labels, `xn--…`; lowercased, one trailing dot removed, 1–253 bytes, characters
/// `a-z 0-9 - . _`, no empty label); an optional `:PORT` is a ``Port``. A scheme, path, user info
/// or IPv6 literal is refused. Anything else is `invalidParameter` (50). No port means port 0
/// ("unspecified") when adding, and any port when looking up, as a keychain query that leaves an
/// attribute out.
package struct SiteName: Sendable, Equatable {
    /// The canonical host.
    package let host: String
    /// The port, when one was given.
    package let port: UInt16?

    /// Parses `text`.
    /// - Throws: `invalidParameter`, naming what is wrong.
    package init(_ text: String) throws(SWCredError) {
        var hostPart = Substring(text)
        var port: UInt16?
        if text.contains("://") || text.contains("/") || text.contains("@") || text.contains("[") {
            throw SWCredError(.invalidParameter, "give the site as HOST or HOST:PORT, without a scheme or path")
        }
        // No '[' gets here, so the split cannot fail.
        if let split = try? HostPort.split(Substring(text)), let digits = split.port {
            guard let value = Port(parsing: digits) else {
                throw SWCredError(.invalidParameter, "the port after ':' must be a number from 1 to 65535")
            }
            port = value.value
            hostPart = split.host
        }
        do throws(HostName.ParseError) {
            host = try HostName(hostPart, syntax: .urlHost).text
        } catch {
            throw SWCredError(.invalidParameter, error.message(subject: "the host"))
        }
        self.port = port
    }

    /// `host` or `host:port`, for messages.
    package var display: String { HostPort.format(host: host, port: port.map(Int.init)) }
}
