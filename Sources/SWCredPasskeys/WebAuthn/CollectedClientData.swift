/// `CollectedClientData` serialised exactly as WebAuthn Level 3 §5.8.1.1 ("Serialization")
/// writes it: `type`, `challenge`, `origin`, `crossOrigin`, in that order, no whitespace, strings
/// through CCDToString. swcred never makes cross-origin calls, so `crossOrigin` is `false` and
/// `topOrigin` is absent.
package struct CollectedClientData: Sendable, Hashable {
    /// `webauthn.create` or `webauthn.get`.
    package enum Kind: String, Sendable {
        case create = "webauthn.create"
        case get = "webauthn.get"
    }

    /// The ceremony.
    package var type: Kind
    /// The challenge bytes (written base64url).
    package var challenge: [UInt8]
    /// The caller's origin: `https://<rpID>` for an app (PK-2 Decision), the page's origin for a browser.
    package var origin: String

    /// Creates client data.
    package init(type: Kind, challenge: [UInt8], origin: String) {
        self.type = type
        self.challenge = challenge
        self.origin = origin
    }

    /// The JSON bytes (`clientDataJSON`).
    package var json: [UInt8] {
        var out = Array("{\"type\":".utf8)
        out += Self.ccdToString(type.rawValue)
        out += Array(",\"challenge\":".utf8)
        out += Self.ccdToString(Base64URL.encode(challenge))
        out += Array(",\"origin\":".utf8)
        out += Self.ccdToString(origin)
        out += Array(",\"crossOrigin\":false}".utf8)
        return out
    }

    /// CCDToString (§5.8.1.1): a quote, the code points with `"` and `\` escaped and controls
    /// (U+0000–U+001F) as `\uXXXX`, a quote.
    static func ccdToString(_ text: String) -> [UInt8] {
        var out: [UInt8] = [0x22]
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += Array("\\u00".utf8) + [hex[Int(scalar.value >> 4)], hex[Int(scalar.value & 0xF)]]
            default: out += Array(String(scalar).utf8)
            }
        }
        out.append(0x22)
        return out
    }
}
