/// An `http`/`https` URL as a statement list names it: a `site` or an `include` (asset-links.md
/// §1.1). Parsed on bytes, without Foundation: scheme, host (lower-cased, one trailing dot
/// removed), port (`nil` for the scheme's default), and what follows the authority.
package struct AssetLinksURL: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`, lower-cased.
    package let scheme: String
    /// The host, lower-cased, without a trailing dot.
    package let host: String
    /// The port, `nil` when absent or the scheme's default.
    package let port: Int?
    /// The path as written (`""` when absent).
    package let path: String
    /// The query without `?`, when there is one.
    package let query: String?
    /// Whether a `#` fragment was present.
    package let hasFragment: Bool
    /// Whether the default port was written out (`https://example.com:443`).
    package let explicitDefaultPort: Bool
    /// Whether the host ended with a dot (`https://example.com.`).
    package let trailingDot: Bool

    /// The longest URL read (2,048 bytes).
    package static let maximumLength = 2_048

    /// Whether the scheme is `https`.
    package var isSecure: Bool { scheme == "https" }

    /// `scheme://host[:port]path[?query]`, the fragment dropped: the URL that is fetched.
    package var description: String {
        "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")\(path)\(query.map { "?\($0)" } ?? "")"
    }

    /// Parses `text`.
    package static func parse(_ text: String) -> Result<AssetLinksURL, AssetLinksSite.Problem> {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return .failure(.empty) }
        guard bytes.count <= maximumLength else { return .failure(.notURL("longer than \(maximumLength) bytes")) }
        guard let separator = find([0x3A, 0x2F, 0x2F], in: bytes) else { return .failure(.notURL("no scheme")) }
        let schemeBytes = bytes[..<separator]
        guard let first = schemeBytes.first, isLetter(first),
            schemeBytes.allSatisfy({ isLetter($0) || isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
        else { return .failure(.notURL("no scheme")) }
        let scheme = String(decoding: schemeBytes, as: UTF8.self).lowercased()
        guard scheme == "http" || scheme == "https" else { return .failure(.nonHTTP) }
        let rest = bytes[(separator + 3)...]
        let authorityEnd =
            rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? rest.endIndex
        let authority = rest[rest.startIndex..<authorityEnd]
        if authority.contains(UInt8(ascii: "@")) { return .failure(.loginInfo) }
        var hostBytes = authority[...]
        var port: Int?
        var explicitDefaultPort = false
        let closingBracket = authority.lastIndex(of: UInt8(ascii: "]"))
        if let colon = authority.lastIndex(of: UInt8(ascii: ":")), closingBracket.map({ colon > $0 }) ?? true {
            let digits = authority[(colon + 1)...]
            guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy(isDigit),
                let value = Int(String(decoding: digits, as: UTF8.self)), (1...65_535).contains(value)
            else { return .failure(.notURL("the port is not 1-65535")) }
            hostBytes = authority[..<colon]
            let isDefault = (scheme == "http" && value == 80) || (scheme == "https" && value == 443)
            explicitDefaultPort = isDefault
            port = isDefault ? nil : value
        }
        guard let host = hostName(hostBytes) else { return .failure(.notURL("the host is not valid")) }
        var path = ""
        var query: String?
        var hasFragment = false
        var cursor = authorityEnd
        let end = bytes.endIndex
        let pathEnd = bytes[cursor...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? end
        path = String(decoding: bytes[cursor..<pathEnd], as: UTF8.self)
        cursor = pathEnd
        if cursor < end, bytes[cursor] == UInt8(ascii: "?") {
            let queryEnd = bytes[cursor...].firstIndex(of: UInt8(ascii: "#")) ?? end
            query = String(decoding: bytes[(cursor + 1)..<queryEnd], as: UTF8.self)
            cursor = queryEnd
        }
        if cursor < end { hasFragment = true }
        return .success(
            AssetLinksURL(
                scheme: scheme, host: host.name, port: port, path: path, query: query, hasFragment: hasFragment,
                explicitDefaultPort: explicitDefaultPort, trailingDot: host.trailingDot))
    }

    /// A registered name (letters, digits, `-`, `_`, `.`; no empty label) or a bracketed IPv6
    /// literal, lower-cased, one trailing dot removed.
    private static func hostName(_ bytes: ArraySlice<UInt8>) -> (name: String, trailingDot: Bool)? {
        guard !bytes.isEmpty, bytes.count <= 253 + 1 else { return nil }
        if bytes.first == UInt8(ascii: "[") {
            guard bytes.last == UInt8(ascii: "]"), bytes.count > 2,
                bytes.dropFirst().dropLast().allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == 0x2E })
            else { return nil }
            return (String(decoding: bytes, as: UTF8.self).lowercased(), false)
        }
        var name = bytes
        let trailingDot = name.last == UInt8(ascii: ".")
        if trailingDot { name = name.dropLast() }
        let labels = name.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard !name.isEmpty,
            labels.allSatisfy({ label in
                !label.isEmpty && label.count <= 63
                    && label.allSatisfy { isLetter($0) || isDigit($0) || $0 == 0x2D || $0 == 0x5F }
            })
        else { return nil }
        return (String(decoding: name, as: UTF8.self).lowercased(), trailingDot)
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for start in 0...(bytes.count - needle.count) where bytes[start..<(start + needle.count)].elementsEqual(needle)
        {
            return start
        }
        return nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
