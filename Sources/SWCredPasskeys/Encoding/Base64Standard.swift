/// Standard base64 with padding (RFC 4648 §4), the encoding of the Chrome DevTools Protocol's
/// `binary` type (`WebAuthn.Credential`'s `credentialId`, `privateKey`, `userHandle`): Chromium
/// refuses base64url there.
package enum Base64Standard {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Encodes with padding, appending to `out` (so that a key's encoding can go straight into a
    /// buffer that is wiped after use).
    package static func append(_ input: [UInt8], to out: inout [UInt8]) {
        var index = 0
        while index < input.count {
            let count = min(3, input.count - index)
            var n = UInt32(input[index]) << 16
            if count > 1 { n |= UInt32(input[index + 1]) << 8 }
            if count > 2 { n |= UInt32(input[index + 2]) }
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(count > 1 ? alphabet[Int(n >> 6 & 63)] : UInt8(ascii: "="))
            out.append(count > 2 ? alphabet[Int(n & 63)] : UInt8(ascii: "="))
            index += 3
        }
    }

    /// Encodes with padding.
    package static func encode(_ input: [UInt8]) -> String {
        var out: [UInt8] = []
        append(input, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes standard base64: a multiple of 4 characters, padding only at the end and exactly as
    /// needed, the unused low bits of the last character zero (one canonical spelling). Returns
    /// `nil` for anything else (base64url's `-` and `_` included).
    package static func decode(_ text: String) -> [UInt8]? {
        var chars = Array(text.utf8)
        guard chars.count % 4 == 0 else { return nil }
        var pads = 0
        while pads < 2, chars.last == UInt8(ascii: "=") {
            chars.removeLast()
            pads += 1
        }
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
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
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
        guard buffer == 0, chars.count % 4 != 1 else { return nil }
        return out
    }
}
