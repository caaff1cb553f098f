/// `host[:port]`, the one splitter and the one writer of it (issue 28: it was split six times and
/// written six times). What a host or a port may be is each caller's rule (``HostName``,
/// ``Port``); where the two meet is decided here.
///
/// ```swift
/// try HostPort.split("example.com:8443")   // ("example.com", "8443")
/// try HostPort.split("example.com")        // ("example.com", nil)
/// try HostPort.split("[::1]:8080")         // ("[::1]", "8080")
/// HostPort.format(host: "example.com", port: 8443)   // "example.com:8443"
/// HostPort.format(host: "example.com", port: nil)    // "example.com"
/// ```
package enum HostPort {
    /// Why a text does not split.
    package enum SplitError: Error, Sendable, Equatable {
        /// A `[` without its `]`.
        case unterminatedLiteral
        /// Something other than `:` follows an IP literal's `]`.
        case textAfterLiteral
    }

    /// Splits `text` into its host and the digits after the port's `:` (`nil` when there is no
    /// `:`; empty for a trailing `:`). Without brackets the port's `:` is the last one; an IP
    /// literal (`[…]`) keeps its brackets, and only `:PORT` may follow it.
    /// - Throws: ``SplitError``.
    package static func split(_ text: Substring) throws(SplitError) -> (host: Substring, port: Substring?) {
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw .unterminatedLiteral }
            let after = text[text.index(after: close)...]
            guard !after.isEmpty else { return (text[...close], nil) }
            guard after.first == ":" else { throw .textAfterLiteral }
            return (text[...close], after.dropFirst())
        }
        guard let colon = text.lastIndex(of: ":") else { return (text, nil) }
        return (text[..<colon], text[text.index(after: colon)...])
    }

    /// `host`, or `host:port` when `port` is given and not 0 (port 0 is "no port": SWC-5.5, the
    /// store's unspecified port).
    package static func format(host: some StringProtocol, port: Int?) -> String {
        guard let port, port != 0 else { return String(host) }
        return "\(host):\(port)"
    }

    /// ``format(host:port:)`` appended as UTF-8 bytes (for writers that build output as bytes:
    /// `swcred list`'s text, once per item). Not generic: a generic `package` function is not
    /// specialised across modules, and its per-item witness calls cost `list` @ 10 000 items
    /// 8.3 M instructions (+19 %; callgrind).
    package static func append(host: UnsafeBufferPointer<UInt8>, port: Int, to text: inout [UInt8]) {
        text.append(contentsOf: host)
        guard port != 0 else { return }
        text.append(UInt8(ascii: ":"))
        JSONText.appendInteger(port, to: &text)
    }
}
