package import SWCredCore

/// A host (and optional port) whose association file is fetched, checked before any URL is built.
///
/// The host is a ``HostName`` of the DNS-name syntax: ASCII only (IDN hosts arrive as A-labels),
/// lowercased once, with one trailing dot removed; only letters, digits, `-` and `.`, at most 253
/// bytes, no empty label, so that nothing in it can change the URL's path or authority.
package struct RetrievalHost: Sendable, Hashable, CustomStringConvertible {
    /// The lowercased host name.
    package let host: String
    /// A non-default port, or nil for 443.
    package let port: Int?

    /// Creates a host from a name already parsed and a port.
    ///
    /// The name is not parsed again: on the `verify` path it was parsed once, from the entitlement.
    /// It must meet the ``HostName/Syntax/dnsName`` rules (an entitlement host does), so that
    /// nothing in it can change a URL's path or authority; a name parsed under looser rules is
    /// checked against them.
    ///
    /// - Throws: `SWCredError.invalidParameter` when the port is out of range, or when `host` was
    ///   parsed under looser rules (`_`, URL sub-delimiters, empty labels).
    package init(_ host: HostName, port: Int? = nil) throws {
        guard host.syntax == .dnsName || host.syntax == .entitlement || host.conforms(to: .dnsName) else {
            throw Self.notAHostName(host.text)
        }
        if let port, !Port.isValid(port) {
            throw SWCredError(.invalidParameter, "port \(port) is out of range 1–65535")
        }
        self.host = host.text
        self.port = port == 443 ? nil : port
    }

    /// Creates a host from parts that are already valid.
    ///
    /// - Throws: `SWCredError.invalidParameter` when `host` is not a plain ASCII host name or the
    ///   port is out of range.
    package init(host: String, port: Int? = nil) throws {
        let name: HostName
        do {
            name = try HostName(host, syntax: .dnsName)
        } catch {
            throw Self.notAHostName(host)
        }
        try self.init(name, port: port)
    }

    private static func notAHostName(_ text: String) -> SWCredError {
        SWCredError(
            .invalidParameter,
            "'\(text.prefix(100))' is not a host name (ASCII letters, digits, '-' and '.'; IDN hosts as punycode)")
    }

    /// Parses `host` or `host:port`.
    ///
    /// - Throws: `SWCredError.invalidParameter` for anything else.
    package init(parsing text: String) throws {
        let parts: (host: Substring, port: Substring?)
        do {
            parts = try HostPort.split(Substring(text))
        } catch {
            throw SWCredError(.invalidParameter, "'\(text.prefix(100))' is not host or host:port")
        }
        guard let portText = parts.port else {
            try self.init(host: text)
            return
        }
        // A second ':' (an IPv6 address without brackets) is left in the host, which is then not a host name.
        guard let port = Port.number(parsing: portText) else {
            throw SWCredError(.invalidParameter, "'\(text.prefix(100))' has a port that is not a number")
        }
        try self.init(host: String(parts.host), port: port)
    }

    /// `host` or `host:port` as it appears in URLs and CDN paths.
    package var authority: String { HostPort.format(host: host, port: port) }

    /// The port connections go to.
    package var effectivePort: Int { port ?? 443 }

    package var description: String { authority }
}
