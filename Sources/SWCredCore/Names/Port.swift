/// A TCP port: 1–65535.
///
/// The one place swcred writes that range down, and the one parser of port digits. Port 0 is not
/// a port; the call sites that read `:0` as "no port" (SWC-5.5) or as "some port that is not the
/// default" (a universal-link URL) use ``number(parsing:)``, which accepts it.
///
/// ```swift
/// Port(parsing: "8443")   // 8443
/// Port(parsing: "+443")   // nil: digits only
/// Port(70000)             // nil
/// ```
package struct Port: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The port number, never 0.
    package let value: UInt16

    /// The ports there are.
    package static let range: ClosedRange<Int> = 1...Int(UInt16.max)

    /// The HTTPS default port.
    package static let https = Port(checked: 443)

    /// A port from a number; `nil` outside ``range``.
    ///
    /// - Parameter value: Any integer.
    package init?(_ value: Int) {
        guard Self.range.contains(value) else { return nil }
        self.value = UInt16(value)
    }

    private init(checked value: UInt16) {
        self.value = value
    }

    /// A port from its decimal digits (1 to 5 ASCII digits, nothing else); `nil` for anything
    /// else, 0 included.
    ///
    /// - Parameter digits: The text after a host's `:`.
    package init?(parsing digits: Substring) {
        guard let number = Self.number(parsing: digits) else { return nil }
        self.init(number)
    }

    /// The number written as 1 to 5 ASCII digits, at most 65535 (0 included); `nil` for anything
    /// else (signs, spaces, an empty string).
    ///
    /// - Parameter digits: The text after a host's `:`.
    /// - Returns: The number, 0...65535.
    package static func number(parsing digits: Substring) -> Int? {
        number(utf8: digits.utf8)
    }

    /// ``number(parsing:)`` over UTF-8 bytes, for byte-level parsers (the URL matcher's fast path).
    ///
    /// - Parameter digits: The bytes after a host's `:`.
    /// - Returns: The number, 0...65535, or `nil`.
    @inlinable
    package static func number<Digits: Collection<UInt8>>(utf8 digits: Digits) -> Int? {
        guard !digits.isEmpty, digits.count <= 5 else { return nil }
        var number = 0
        for byte in digits {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            number = number &* 10 &+ Int(digit)
        }
        return number <= Int(UInt16.max) ? number : nil
    }

    /// Whether `value` is a port (1–65535).
    ///
    /// - Parameter value: Any integer.
    /// - Returns: Whether `value` is in ``range``.
    package static func isValid(_ value: Int) -> Bool { range.contains(value) }

    /// The port as an `Int`.
    package var intValue: Int { Int(value) }

    /// `host`, followed by `:port` unless the port is absent or ``https`` (443): the site whose
    /// association file serves an entry, as the `--aasa-dir` folder name and the CDN path say it.
    package static func authority(host: String, port: Int?) -> String {
        HostPort.format(host: host, port: port == https.intValue ? nil : port)
    }

    package var description: String { String(value) }

    /// Orders ports by number.
    package static func < (lhs: Port, rhs: Port) -> Bool { lhs.value < rhs.value }
}
