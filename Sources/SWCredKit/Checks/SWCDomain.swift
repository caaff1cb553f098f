import SWCredCore

/// A parsed `fqdn` argument: `domain` or `domain:port` (SWC-6.4).
///
/// The emulator reads `https://` + `fqdn` as a URL and keeps its host, lowercased, and its port;
/// anything else (user info, path, query, fragment) is dropped. So `Example.COM:8443` gives
/// `example.com` port 8443, and `https://example.com` gives the host `https`, which then fails the
/// entitlement check.
///
/// **Decision (SWC-6.4):** a host that is empty, non-ASCII or contains `*`, or a port above 65535,
/// is unparsable ("No domain provided"). A port of 0 means "no port" (SWC-5.5).
package struct SWCDomain: Sendable, Hashable, CustomStringConvertible {
    /// The lowercased host.
    package let host: String
    /// The port, when one was given (1–65535).
    package let port: Int?

    /// Creates a parsed domain directly.
    package init(host: String, port: Int?) {
        self.host = host
        self.port = port
    }

    package var description: String { host + (port.map { ":\($0)" } ?? "") }

    /// Parses `fqdn` as SWC-6.4 describes; `nil` when it is unparsable.
    package init?(parsing fqdn: String) {
        guard fqdn.utf8.count <= 2048 else { return nil }
        // The authority of `https://<fqdn>` ends at the first `/`, `?` or `#`.
        let authority = fqdn.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        // User info ends at the last `@`.
        let hostAndPort = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        var hostPart = hostAndPort
        var port: Int?
        // An IP-literal keeps its brackets; a port may follow `]`.
        guard let split = try? HostPort.split(hostAndPort) else { return nil }
        hostPart = split.host
        // `host:` (empty port) is a valid URL without a port.
        if let digits = split.port, !digits.isEmpty {
            guard let value = Port.number(parsing: digits) else { return nil }
            port = value
        }
        // URL host characters only (unreserved, sub-delims, `%`, and the IP-literal brackets).
        guard let host = try? HostName(hostPart, syntax: .urlAuthority).text else { return nil }
        self.host = host
        self.port = (port ?? 0) > 0 ? port : nil
    }
}
