/// JSON text written straight into a byte buffer (RFC 8259), for output that is written a line
/// at a time at high rates (bulk `match` writes millions of lines) without an encoder per value;
/// inlinable, so that such a loop in another module pays no call per value.
package enum JSONText {
    /// Appends `text` as a JSON string (RFC 8259 §7): quotation mark, reverse solidus and the
    /// control characters U+0000–U+001F escaped (`\n`, `\r`, `\t`, else `\u00XX`), everything else
    /// as its UTF-8 bytes; `/` is not escaped.
    @inlinable
    package static func appendString(_ text: String, to buffer: inout [UInt8]) {
        var text = text
        // Most texts (URLs, app IDs) need no escape: copied in one go.
        let copied = text.withUTF8 { bytes in
            for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            buffer.append(UInt8(ascii: "\""))
            buffer.append(contentsOf: bytes)
            buffer.append(UInt8(ascii: "\""))
            return true
        }
        if !copied { appendEscapedString(text, to: &buffer) }
    }

    @usableFromInline
    static func appendEscapedString(_ text: String, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): buffer.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): buffer.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: buffer.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: buffer.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: buffer.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                buffer.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: buffer.append(byte)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// Appends the decimal digits of `value` (RFC 8259 §6: a `-` for negatives, no leading zeros).
    @inlinable
    package static func appendInteger(_ value: Int, to buffer: inout [UInt8]) {
        guard value > 0 else {
            buffer.append(contentsOf: String(value).utf8)
            return
        }
        // Room for the 19 digits of Int.max.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { space in
            while rest > 0 {
                count += 1
                space[24 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: space[(24 - count)...]))
        }
    }
}
