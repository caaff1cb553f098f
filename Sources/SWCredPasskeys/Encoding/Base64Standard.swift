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
        guard chars.count % 4 != 1 else { return nil }
        return Base64URL.unpack(chars, symbol62: UInt8(ascii: "+"), symbol63: UInt8(ascii: "/"))
    }
}
