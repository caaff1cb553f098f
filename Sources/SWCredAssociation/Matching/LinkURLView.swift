public import SWCredCore

/// A URL split into byte ranges of its own text, for matching many URLs fast (AD-7.1).
///
/// The common URL — printable ASCII, `scheme://host[:port]/path?query#fragment`, no user info,
/// no IPv6 literal — is split on its UTF-8 bytes without building any string but the host. Any
/// other text goes through ``LinkURL`` itself, so both give the same components, the same
/// normalisation (AD-7.12) and the same errors.
public struct LinkURLView: Sendable {
    enum Storage: Sendable {
        /// Offsets into `text.utf8`; `query`/`fragment` exclude their `?`/`#`; `nil` = absent.
        case bytes(path: Range<Int>, query: Range<Int>?, fragment: Range<Int>?)
        case parsed(LinkURL)
    }

    /// The text parsed.
    public let text: String
    /// The host, lowercase ASCII, one trailing dot removed (as ``LinkURL/host``).
    public let host: String
    /// Whether the URL names a port other than its scheme's default (such URLs never match).
    public let hasNonDefaultPort: Bool
    let storage: Storage

    /// Parses an `http` or `https` URL.
    ///
    /// - Throws: `SWCredError.Code.invalidURL` (exit 64), exactly as ``LinkURL/init(_:)``.
    public init(_ text: String) throws(SWCredError) {
        var copy = text
        let split = copy.withUTF8 { Self.split($0) }
        self.text = copy
        if let split {
            host = split.host
            hasNonDefaultPort = split.nonDefaultPort
            storage = .bytes(path: split.path, query: split.query, fragment: split.fragment)
        } else {
            let url = try LinkURL(text)
            host = url.host
            hasNonDefaultPort = url.hasNonDefaultPort
            storage = .parsed(url)
        }
    }

    /// The same URL as a ``LinkURL``.
    public var linkURL: LinkURL {
        get throws(SWCredError) {
            if case .parsed(let url) = storage { return url }
            return try LinkURL(text)
        }
    }

    private struct Split {
        var host: String
        var nonDefaultPort: Bool
        var path: Range<Int>
        var query: Range<Int>?
        var fragment: Range<Int>?
    }

    /// The byte split of the common form; `nil` sends the text to ``LinkURL``.
    private static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> Split? {
        let count = bytes.count
        guard count <= LinkURL.maximumLength else { return nil }
        // Printable ASCII only: nothing for `LinkURL.encodeUnsafe` to escape, one byte per character.
        var schemeEnd = -1
        var index = 0
        while index < count {
            let byte = bytes[index]
            guard byte > 0x20, byte < 0x7F else { return nil }
            if schemeEnd < 0, byte == UInt8(ascii: ":"), index + 2 < count,
                bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/")
            {
                schemeEnd = index
            }
            index += 1
        }
        let https: Bool
        switch schemeEnd {
        case 4:
            guard bytes[0] | 0x20 == UInt8(ascii: "h"), bytes[1] | 0x20 == UInt8(ascii: "t"),
                bytes[2] | 0x20 == UInt8(ascii: "t"), bytes[3] | 0x20 == UInt8(ascii: "p")
            else { return nil }
            https = false
        case 5:
            guard bytes[0] | 0x20 == UInt8(ascii: "h"), bytes[1] | 0x20 == UInt8(ascii: "t"),
                bytes[2] | 0x20 == UInt8(ascii: "t"), bytes[3] | 0x20 == UInt8(ascii: "p"),
                bytes[4] | 0x20 == UInt8(ascii: "s")
            else { return nil }
            https = true
        default: return nil
        }
        let restStart = schemeEnd + 3
        var end = count
        var fragment: Range<Int>?
        var query: Range<Int>?
        if let hash = (restStart..<end).first(where: { bytes[$0] == UInt8(ascii: "#") }) {
            fragment = (hash + 1)..<end
            end = hash
        }
        if let mark = (restStart..<end).first(where: { bytes[$0] == UInt8(ascii: "?") }) {
            query = (mark + 1)..<end
            end = mark
        }
        var authorityEnd = end
        var path = end..<end
        if let slash = (restStart..<end).first(where: { bytes[$0] == UInt8(ascii: "/") }) {
            authorityEnd = slash
            path = slash..<end
        }
        var hostEnd = authorityEnd
        var port: Int?
        if let colon = (restStart..<authorityEnd).last(where: { bytes[$0] == UInt8(ascii: ":") }) {
            hostEnd = colon
            let digits = (colon + 1)..<authorityEnd
            if !digits.isEmpty {
                guard digits.count <= 5 else { return nil }
                var value = 0
                for i in digits {
                    let digit = bytes[i] &- UInt8(ascii: "0")
                    guard digit < 10 else { return nil }
                    value = value * 10 + Int(digit)
                }
                guard value <= 65535 else { return nil }
                port = value
            }
        }
        if hostEnd > restStart, bytes[hostEnd - 1] == UInt8(ascii: ".") { hostEnd -= 1 }
        guard hostEnd > restStart else { return nil }
        var upper = false
        for i in restStart..<hostEnd {
            switch bytes[i] {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): upper = true
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                break
            default: return nil  // '@', '[', anything else: LinkURL decides
            }
        }
        let hostBytes = UnsafeBufferPointer(rebasing: bytes[restStart..<hostEnd])
        let host =
            upper
            ? String(decoding: hostBytes.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
            : String(decoding: hostBytes, as: UTF8.self)
        let nonDefaultPort = port.map { $0 != (https ? 443 : 80) } ?? false
        return Split(
            host: host, nonDefaultPort: nonDefaultPort, path: path,
            query: query, fragment: fragment)
    }
}
