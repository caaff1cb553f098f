import SWCredCore

/// How the live fetcher reaches sites: limits, timeouts, extra roots and address overrides.
///
/// Every field has the device's value as its default (associated-domains.md §4): a 131 072-byte
/// cap (AD-4.6), a 60-second limit for the whole exchange (AD-4.8), redirects never followed
/// (AD-4.4), no user-installed roots (AD-4.3).
public struct RetrievalConfiguration: Sendable, Hashable {
    /// The largest body accepted, in bytes: 131 072 (AD-4.6). Byte 131 073 refuses the file.
    public var maximumBodySize: Int
    /// Time allowed to open the TCP connection and finish the TLS handshake.
    public var connectTimeout: Duration
    /// Longest silence allowed between two reads once connected.
    public var readTimeout: Duration
    /// Time allowed for the whole exchange, body included (60 s on a device, AD-4.8). A server
    /// that keeps dripping bytes is stopped by this limit.
    public var totalTimeout: Duration
    /// Extra trusted roots, PEM encoded (`--ca-file`). They have developer-mode semantics
    /// (AD-4.3): used only for requests that allow user-installed roots.
    ///
    /// - Warning: a root added here can vouch for any host name. Give only roots you control.
    public var userInstalledRootsPEM: [String]
    /// `--resolve HOST:PORT:ADDR` overrides: connect to ADDR while keeping HOST for SNI, the
    /// certificate check and the `Host` header.
    package var resolveOverrides: [ResolveOverride]
    /// The CDN route's base, `https://app-site-association.cdn-apple.com/a/v1/` (AD-4.1). Tests
    /// point it at a local server; it must be `https`.
    package var cdnBaseURL: String

    /// Whether redirects are followed as the device does (https targets only, at most
    /// ``maximumRedirects`` hops, never on the CDN route). Off by default: AD-4.4 **Decision**,
    /// strict, because the documentation forbids redirects and validators must catch them. Each
    /// followed hop is a warning in the report.
    public var followsRedirects: Bool = false
    /// The most redirects followed when ``followsRedirects`` is on (5, AD-4.4).
    public var maximumRedirects: Int = 5

    /// Apple's CDN base URL.
    public static let appleCDNBaseURL = "https://app-site-association.cdn-apple.com/a/v1/"

    /// Creates a configuration with the device's defaults.
    public init(
        maximumBodySize: Int = 131_072,
        connectTimeout: Duration = .seconds(10),
        readTimeout: Duration = .seconds(30),
        totalTimeout: Duration = .seconds(60),
        userInstalledRootsPEM: [String] = [],
        resolveOverrides: [ResolveOverride] = [],
        cdnBaseURL: String = RetrievalConfiguration.appleCDNBaseURL
    ) {
        self.maximumBodySize = maximumBodySize
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        self.totalTimeout = totalTimeout
        self.userInstalledRootsPEM = userInstalledRootsPEM
        self.resolveOverrides = resolveOverrides
        self.cdnBaseURL = cdnBaseURL
    }
}

/// One `--resolve HOST:PORT:ADDR` override, as curl has it: connections to HOST on PORT go to
/// ADDR, while TLS (SNI, certificate host name) and the `Host` header still say HOST.
public struct ResolveOverride: Sendable, Hashable, CustomStringConvertible {
    /// The host name as it appears in URLs (lowercased).
    public let host: String
    /// The port the override applies to.
    public let port: Int
    /// The address to connect to instead (an IPv4 or IPv6 literal, or a host name).
    public let address: String

    /// Creates an override.
    public init(host: String, port: Int, address: String) {
        self.host = HostName.lowercasedASCII(host)
        self.port = port
        self.address = address
    }

    /// Parses `HOST:PORT:ADDR`; an IPv6 ADDR may be given in brackets (`[::1]`).
    ///
    /// - Throws: `SWCredError.usage` for anything else.
    public init(parsing text: String) throws {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[2].isEmpty,
            let port = Port(parsing: parts[1])
        else {
            throw SWCredError(
                .usage, "--resolve wants HOST:PORT:ADDR with a port from 1 to 65535, got '\(text.prefix(200))'")
        }
        var address = String(parts[2])
        if address.hasPrefix("["), address.hasSuffix("]") {
            address = String(address.dropFirst().dropLast())
        }
        let allowed = address.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".:-".unicodeScalars.contains($0))
        }
        guard allowed, address.utf8.count <= 255 else {
            throw SWCredError(.usage, "--resolve address '\(address.prefix(200))' is not an address")
        }
        let host = try RetrievalHost(parsing: String(parts[0])).host
        self.init(host: host, port: port.intValue, address: address)
    }

    public var description: String { "\(host):\(port):\(address)" }
}
