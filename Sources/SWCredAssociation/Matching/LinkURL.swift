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
    package static let maximumLength = 65_536

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
            fragment = Self.encodeUnsafe(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let mark = rest.firstIndex(of: "?") {
            query = Self.encodeUnsafe(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        var authority = rest
        path = ""
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            path = Self.encodeUnsafe(rest[slash...])
        }
        // User info is ignored (AD-7.1, Decision).
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let split: (host: Substring, port: Substring?)
        do {
            split = try HostPort.split(authority)
        } catch {
            switch error {
            case .unterminatedLiteral: throw SWCredError(.invalidURL, "unterminated IPv6 address in \(text)")
            case .textAfterLiteral: throw SWCredError(.invalidURL, "bad port in \(text)")
            }
        }
        let hostText = split.host
        if let digits = split.port { port = try Self.port(digits, in: text) }
        if hostText.hasPrefix("[") {
            let literal = HostName.lowercasedASCII(hostText)
            guard
                literal.unicodeScalars.allSatisfy({
                    ("0"..."9").contains($0) || ("a"..."f").contains($0) || ":.[]".unicodeScalars.contains($0)
                })
            else { throw SWCredError(.invalidURL, "the URL's host is not a valid host name: \(text)") }
            self.host = literal
            return
        }
        var ascii = String(hostText)
        if !ascii.unicodeScalars.allSatisfy(\.isASCII) {
            guard let encoded = Punycode.asciiHost(ascii) else {
                throw SWCredError(.invalidURL, "cannot encode the host of \(text) as Punycode")
            }
            ascii = encoded
        }
        do throws(HostName.ParseError) {
            self.host = try HostName(ascii, syntax: .linkURLHost).text
        } catch {
            if error == .empty { throw SWCredError(.invalidURL, "the URL has no host: \(text)") }
            throw SWCredError(.invalidURL, "the URL's host is not a valid host name: \(text)")
        }
    }

    /// Percent-encodes (UTF-8) the characters a URL never carries unescaped — non-ASCII, space
    /// and controls — as a browser does before handing a URL over, so that a URL typed with
    /// `é` is compared like `%C3%A9` (AD-7.12: URLs are ASCII). Everything else is kept as written.
    static func encodeUnsafe(_ text: Substring) -> String {
        guard !text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else { return String(text) }
        var output = ""
        for scalar in text.unicodeScalars {
            if scalar.value > 0x20, scalar.value < 0x7F {
                output.unicodeScalars.append(scalar)
            } else {
                for byte in String(scalar).utf8 {
                    output +=
                        "%" + String(byte >> 4, radix: 16, uppercase: true)
                        + String(byte & 0x0F, radix: 16, uppercase: true)
                }
            }
        }
        return output
    }

    private static func port(_ digits: Substring, in text: String) throws(SWCredError) -> Int? {
        if digits.isEmpty { return nil }
        guard let value = Port.number(parsing: digits) else { throw SWCredError(.invalidURL, "bad port in \(text)") }
        return value
    }

    /// Whether the URL names a port other than its scheme's default (such URLs never match, AD-7.1).
    package var hasNonDefaultPort: Bool {
        guard let port else { return false }
        return port != (scheme == "https" ? 443 : 80)
    }
}

extension SWCredError.Code {
    /// A URL given to `swcred match` is not an absolute http(s) URL (exit 64).
    public static let invalidURL = Self(.invalidURL)
}
