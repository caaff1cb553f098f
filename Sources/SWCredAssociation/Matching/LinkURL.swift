public import SWCredCore

/// A URL split into the raw components applinks matching looks at (AD-7.1).
///
/// swcred splits URLs itself rather than through `URL`/`URLComponents`, so that components are
/// compared exactly as written (AD-7.12) on every platform.
public struct LinkURL: Sendable, Hashable, CustomStringConvertible {
    /// The scheme, lowercased (`http` or `https`).
    public var scheme: String
    /// The host, lowercase ASCII (A-labels for IDN hosts), one trailing dot removed.
    public var host: String
    /// The explicit port, if any.
    public var port: Int?
    /// The path as written (may be empty).
    public var path: String
    /// The query without `?`, or `nil` when there is no `?`.
    public var query: String?
    /// The fragment without `#`, or `nil` when there is no `#`.
    public var fragment: String?
    /// The text parsed.
    public var description: String

    /// The longest URL accepted.
    public static let maximumLength = 65_536

    /// Parses an `http` or `https` URL.
    ///
    /// - Throws: `SWCredError.Code.invalidURL` (exit 64) for anything that is not an absolute
    ///   http(s) URL with a host.
    public init(_ text: String) throws(SWCredError) {
        guard text.utf8.count <= Self.maximumLength else {
            throw SWCredError(.invalidURL, "the URL is longer than \(Self.maximumLength) bytes")
        }
        description = text
        guard let schemeEnd = text.firstRange(of: "://") else {
            throw SWCredError(.invalidURL, "not an absolute URL: \(text)")
        }
        scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw SWCredError(.invalidURL, "universal links are http or https URLs, not '\(scheme)'")
        }
        var rest = text[schemeEnd.upperBound...]
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        var authority = rest
        path = ""
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            path = String(rest[slash...])
        }
        // User info is ignored (AD-7.1, Decision).
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var hostText = authority
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw SWCredError(.invalidURL, "unterminated IPv6 address in \(text)")
            }
            hostText = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw SWCredError(.invalidURL, "bad port in \(text)") }
                port = try Self.port(after.dropFirst(), in: text)
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostText = authority[..<colon]
            port = try Self.port(authority[authority.index(after: colon)...], in: text)
        }
        var host = String(hostText)
        if host.hasSuffix(".") { host.removeLast() }
        guard !host.isEmpty else { throw SWCredError(.invalidURL, "the URL has no host: \(text)") }
        if host.unicodeScalars.allSatisfy(\.isASCII) {
            host = host.lowercased()
        } else {
            guard let ascii = Punycode.asciiHost(host) else {
                throw SWCredError(.invalidURL, "cannot encode the host of \(text) as Punycode")
            }
            host = ascii
        }
        self.host = host
    }

    private static func port(_ digits: Substring, in text: String) throws(SWCredError) -> Int? {
        if digits.isEmpty { return nil }
        guard digits.count <= 5, digits.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }),
            let value = Int(digits), value <= 65535
        else { throw SWCredError(.invalidURL, "bad port in \(text)") }
        return value
    }

    /// Whether the URL names a port other than its scheme's default (such URLs never match, AD-7.1).
    public var hasNonDefaultPort: Bool {
        guard let port else { return false }
        return port != (scheme == "https" ? 443 : 80)
    }
}

extension SWCredError.Code {
    /// A URL given to `swcred match` is not an absolute http(s) URL (exit 64).
    public static let invalidURL = Self("invalidURL", exitCode: 64)
}
