import SWCredCore

/// A web origin as WebAuthn related origins compare them (asset-links.md §2.1): a tuple of
/// scheme, canonical host and port, read from one entry of `/.well-known/webauthn` or made from a
/// caller's origin.
///
/// Reading an entry follows the URL parser closely enough for the decisions clients make: the
/// special schemes (`http`, `https`, `ws`, `wss`, `ftp`) give a tuple origin; any other scheme an
/// opaque origin, which has no effective domain and is skipped; the host is lowercased and a
/// non-ASCII host becomes its A-label form; a path, query, fragment or user name is ignored for the
/// comparison (clients compare origins) and reported. Where the URL parser would repair a text
/// (`https:example.com`, backslashes, percent-encoded hosts, a trailing dot), swcred refuses it:
/// such an entry is reported and skipped, never matched.
///
/// ```swift
/// let origin = try RelatedOrigin.parse("https://Shop.Example.de/").get()
/// origin.description  // "https://shop.example.de"
/// ```
package struct RelatedOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The lowercased scheme.
    package let scheme: String
    /// The canonical host: lowercase ASCII, or an IP literal (`[::1]`, `192.0.2.1`).
    package let host: String
    /// The port when not the scheme's default.
    package let port: Int?
    /// Whether the text had more than the origin: a path other than `/`, a query, a fragment or
    /// a user name (ignored by the comparison, reported by lint).
    package let hasMoreThanOrigin: Bool

    /// The longest entry read.
    package static let maximumLength = 2_048

    private static let defaultPorts: [String: Int] = ["http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21]

    /// An origin from its parts (a caller's); the scheme and host must already be canonical.
    package init(scheme: String, host: String, port: Int?) {
        self.init(scheme: scheme, host: host, port: port, hasMoreThanOrigin: false)
    }

    private init(scheme: String, host: String, port: Int?, hasMoreThanOrigin: Bool) {
        self.scheme = scheme
        self.host = host
        self.port = port == Self.defaultPorts[scheme] ? nil : port
        self.hasMoreThanOrigin = hasMoreThanOrigin
    }

    /// `scheme://host[:port]`.
    package var description: String { "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "") }

    /// Whether two origins are the same origin (scheme, host and port).
    package func isSameOrigin(as other: RelatedOrigin) -> Bool {
        scheme == other.scheme && host == other.host && port == other.port
    }

    /// Whether the host is an IP literal, which has no registrable domain.
    package var isIPAddress: Bool {
        if host.hasPrefix("[") { return true }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        return labels.last.map { !$0.isEmpty && $0.allSatisfy(\.isNumber) } ?? false
    }

    /// Why an entry gives no tuple origin.
    package enum Unusable: Error, Sendable, Hashable, CustomStringConvertible {
        /// The URL parser refuses it, or swcred does not repair it (the reason).
        case notAURL(String)
        /// A scheme whose origin is opaque (`other://foo.com`, `data:`): no effective domain.
        case opaque(String)

        /// The reason in words.
        package var description: String {
            switch self {
            case .notAURL(let why): "is not a URL: \(why)"
            case .opaque(let scheme): "has the scheme '\(scheme)', whose origin is opaque (no effective domain)"
            }
        }
    }

    /// Reads one entry of the `origins` array.
    package static func parse(_ text: String) -> Result<RelatedOrigin, Unusable> {
        guard text.utf8.count <= maximumLength else { return .failure(.notAURL("longer than \(maximumLength) bytes")) }
        guard let colon = text.firstIndex(of: ":") else { return .failure(.notAURL("no scheme (write https://…)")) }
        let schemeText = text[..<colon]
        guard let first = schemeText.unicodeScalars.first,
            schemeText.unicodeScalars.allSatisfy({
                $0.isASCIILetter || $0.isASCIIDigit || "+-.".unicodeScalars.contains($0)
            }),
            first.isASCIILetter
        else { return .failure(.notAURL("no scheme (write https://…)")) }
        let scheme = HostName.lowercasedASCII(schemeText)
        guard let defaultPort = defaultPorts[scheme] else { return .failure(.opaque(scheme)) }
        let afterColon = text[text.index(after: colon)...]
        guard afterColon.hasPrefix("//") else { return .failure(.notAURL("the scheme is not followed by //")) }
        let rest = afterColon.dropFirst(2)
        guard !rest.contains(where: { $0 == "\\" || $0.isWhitespace || ($0.asciiValue.map { $0 < 0x20 } ?? false) })
        else { return .failure(.notAURL("it holds a backslash, a space or a control character")) }
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        let tail = rest[authorityEnd...]
        var more = !(tail.isEmpty || tail == "/")
        if let at = authority.lastIndex(of: "@") {
            authority = authority[authority.index(after: at)...]
            more = true
        }
        return parseAuthority(authority, scheme: scheme, defaultPort: defaultPort).map {
            RelatedOrigin(scheme: scheme, host: $0.host, port: $0.port, hasMoreThanOrigin: more)
        }
    }

    private static func parseAuthority(
        _ authority: Substring, scheme: String, defaultPort: Int
    ) -> Result<(host: String, port: Int?), Unusable> {
        var hostPart = authority
        var port: Int?
        // The port: after the last ':' that is not inside an IPv6 literal.
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            let digits = authority[authority.index(after: colon)...]
            hostPart = authority[..<colon]
            if !digits.isEmpty {
                guard digits.count <= 5, digits.allSatisfy(\.isASCIIDigitCharacter), let value = Int(digits),
                    value <= 65_535
                else { return .failure(.notAURL("the port is not a number up to 65535")) }
                port = value
            }
        }
        guard !hostPart.isEmpty else { return .failure(.notAURL("no host")) }
        if hostPart.hasPrefix("[") {
            guard hostPart.hasSuffix("]"), hostPart.count > 2,
                hostPart.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." })
            else { return .failure(.notAURL("a malformed IPv6 address")) }
            return .success((HostName.lowercasedASCII(hostPart), port == defaultPort ? nil : port))
        }
        guard !hostPart.contains("%") else { return .failure(.notAURL("a percent-encoded host")) }
        guard hostPart.last != "." else { return .failure(.notAURL("a trailing dot (not repaired)")) }
        // Unicode labels become A-labels; HostName (the URL host syntax) checks and lowercases.
        guard let encoded = Punycode.asciiHost(String(hostPart)),
            let ascii = try? HostName(encoded, syntax: .urlHost).text
        else { return .failure(.notAURL("a host that is not a host name")) }
        return .success((ascii, port == defaultPort ? nil : port))
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}
