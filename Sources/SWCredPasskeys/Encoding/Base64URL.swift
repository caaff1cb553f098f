/// base64url without padding (RFC 4648 §5), the encoding of every binary member in the WebAuthn
/// JSON forms.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes without padding.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= input.count {
            let n = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)], alphabet[Int(n & 63)]]
            index += 3
        }
        let rest = input.count - index
        if rest == 1 {
            let n = UInt32(input[index]) << 16
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)]]
        } else if rest == 2 {
            let n = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)]]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes base64url; padding (`=`) is accepted only at the end and only in the right amount,
    /// and the unused low bits of the last character must be zero (one canonical spelling).
    /// Returns `nil` for anything else.
    package static func decode(_ text: String) -> [UInt8]? {
        var chars = Array(text.utf8)
        if chars.count % 4 == 0, let firstPad = chars.firstIndex(of: UInt8(ascii: "=")) {
            let pads = chars.count - firstPad
            guard pads <= 2, chars[firstPad...].allSatisfy({ $0 == UInt8(ascii: "=") }) else { return nil }
            chars.removeLast(pads)
        }
        guard chars.count % 4 != 1 else { return nil }
        return unpack(chars, symbol62: UInt8(ascii: "-"), symbol63: UInt8(ascii: "_"))
    }

    /// The 6-bit groups of `chars` (no padding left) as bytes, for either alphabet: RFC 4648's
    /// letters and digits, and `symbol62`/`symbol63` (`-` `_` for base64url, `+` `/` for standard
    /// base64). `nil` for another character or unused low bits that are not zero (one canonical
    /// spelling).
    static func unpack(_ chars: [UInt8], symbol62: UInt8, symbol63: UInt8) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(chars.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for char in chars {
            let value: UInt32
            switch char {
            case 0x41...0x5A: value = UInt32(char - 0x41)
            case 0x61...0x7A: value = UInt32(char - 0x61 + 26)
            case 0x30...0x39: value = UInt32(char - 0x30 + 52)
            case symbol62: value = 62
            case symbol63: value = 63
            default: return nil
            }
            buffer = buffer << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        guard buffer == 0 else { return nil }
        return out
    }
}
