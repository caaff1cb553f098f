extension JSONParser {
    /// RFC 8259 §7: `quotation-mark *char quotation-mark`; §8.1: the text must be UTF-8.
    ///
    /// A string without escapes (almost all) becomes a `String` straight from the buffer; one
    /// with escapes is unescaped into a byte buffer first. Either way the bytes are validated as
    /// UTF-8 (no overlong forms, no encoded surrogates) and counted against the string limit.
    mutating func parseString() throws(JSONReader.Failure) -> String {
        index += 1  // opening quote
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                guard index - start <= limits.maxStringBytes else { throw stringTooLong() }
                index += 1
                return try makeString(UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)]))
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            index += 1
        }
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        return try parseEscapedString(into: &buffer)
    }

    private func stringTooLong() -> JSONReader.Failure {
        failure(.limitExceeded, "string longer than \(limits.maxStringBytes) bytes")
    }

    private func makeString(_ utf8: UnsafeBufferPointer<UInt8>) throws(JSONReader.Failure) -> String {
        guard let string = String(validating: utf8, as: UTF8.self) else {
            throw failure(.encoding, "string is not valid UTF-8")
        }
        return string
    }

    /// The rest of a string from its first escape or control character.
    private mutating func parseEscapedString(into buffer: inout [UInt8]) throws(JSONReader.Failure) -> String {
        while true {
            guard buffer.count <= limits.maxStringBytes else { throw stringTooLong() }
            guard index < bytes.count else { throw syntax("unterminated string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = String(validating: buffer, as: UTF8.self) else {
                    throw failure(.encoding, "string is not valid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                try parseEscape(into: &buffer)
            case 0x00..<0x20:
                throw failure(.encoding, "control character in string")
            default:
                buffer.append(byte)
                index += 1
            }
        }
    }

    /// RFC 8259 §7: `\" \\ \/ \b \f \n \r \t \uXXXX`; a `\u` high surrogate must be followed by a
    /// `\u` low surrogate, and a lone surrogate is refused (it has no UTF-8 form).
    private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONReader.Failure) {
        guard index < bytes.count else { throw syntax("unterminated escape") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): buffer.append(0x22)
        case UInt8(ascii: "\\"): buffer.append(0x5C)
        case UInt8(ascii: "/"): buffer.append(0x2F)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var code = try parseHex4()
            if (0xD800...0xDBFF).contains(code) {
                guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                else { throw failure(.encoding, "unpaired surrogate") }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw failure(.encoding, "unpaired surrogate") }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(code) {
                throw failure(.encoding, "unpaired surrogate")
            }
            guard let scalar = Unicode.Scalar(code) else { throw syntax("invalid escape") }
            UTF8.encode(scalar) { buffer.append($0) }
        default:
            throw syntax("invalid escape")
        }
    }

    /// Four hexadecimal digits of a `\u` escape.
    private mutating func parseHex4() throws(JSONReader.Failure) -> UInt32 {
        guard bytes.count - index >= 4 else { throw syntax("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw syntax("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
