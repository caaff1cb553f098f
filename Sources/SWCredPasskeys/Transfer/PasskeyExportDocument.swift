package import SWCredCore
package import SWCredStore
import SWCredSodium

/// The document `passkey export --to playwright|cdp` writes (cli.md "Browser tests"), private
/// keys included: the caller writes the bytes only where cli.md allows (a 0600 file, or stdout
/// that is not a terminal) and wipes them after.
///
/// - `playwright`: `{"cookies":[],"origins":[],"credentials":[{"id","rpId","userHandle",
///   "privateKey","publicKey","signCount"}]}`, binary members base64url without padding,
///   `privateKey` PKCS#8 DER, `publicKey` SPKI DER.
/// - `cdp`: `[{"credentialId","isResidentCredential":true,"rpId","privateKey","userHandle",
///   "signCount","userName","userDisplayName","backupEligibility":true,"backupState":true}]`,
///   binary members standard base64 with padding.
///
/// `signCount` is the stored count (`PasskeySignCount`): the browser's next assertion reports one
/// more, so the count never goes back across the hand-over. Members are in the order above, one
/// credential per line, the document ending with a newline.
package enum PasskeyExportDocument {
    /// The document for `passkeys`, in their store order.
    /// - Throws: `internalError` when a stored key cannot be read (a store that decoded holds none).
    package static func encode(_ passkeys: [PasskeyItem], as format: PasskeyTransferFormat) throws(SWCredError)
        -> [UInt8]
    {
        var out: [UInt8] = []
        out.reserveCapacity(64 + passkeys.count * 512)
        switch format {
        case .playwright: out += Array("{\"cookies\":[],\"origins\":[],\"credentials\":[".utf8)
        case .cdp: out.append(UInt8(ascii: "["))
        }
        for (index, passkey) in passkeys.enumerated() {
            out += Array((index == 0 ? "\n" : ",\n").utf8)
            var der = try PasskeyKeyDER.pkcs8(raw: passkey.privateKey)
            defer { Sodium.memzero(&der) }
            switch format {
            case .playwright:
                let spki = try PasskeyKeyDER.spki(raw: passkey.privateKey)
                out += Array("{\"id\":\"\(Base64URL.encode(passkey.credentialID))\",\"rpId\":".utf8)
                JSONText.appendString(passkey.rpID, to: &out)
                out += Array(",\"userHandle\":\"\(Base64URL.encode(passkey.userHandle))\",\"privateKey\":\"".utf8)
                appendBase64URL(der, to: &out)
                out += Array("\",\"publicKey\":\"\(Base64URL.encode(spki))\",\"signCount\":\(passkey.signCount)}".utf8)
            case .cdp:
                out += Array("{\"credentialId\":\"\(Base64Standard.encode(passkey.credentialID))\",".utf8)
                out += Array("\"isResidentCredential\":true,\"rpId\":".utf8)
                JSONText.appendString(passkey.rpID, to: &out)
                out += Array(",\"privateKey\":\"".utf8)
                Base64Standard.append(der, to: &out)
                out += Array("\",\"userHandle\":\"\(Base64Standard.encode(passkey.userHandle))\",".utf8)
                out += Array("\"signCount\":\(passkey.signCount),\"userName\":".utf8)
                JSONText.appendString(passkey.userName, to: &out)
                out += Array(",\"userDisplayName\":".utf8)
                JSONText.appendString(passkey.displayName, to: &out)
                out += Array(",\"backupEligibility\":true,\"backupState\":true}".utf8)
            }
        }
        out += Array((passkeys.isEmpty ? "" : "\n").utf8)
        out += Array((format == .playwright ? "]}\n" : "]\n").utf8)
        return out
    }

    /// base64url without padding straight into `out` (no intermediate string of the key to wipe).
    private static func appendBase64URL(_ bytes: [UInt8], to out: inout [UInt8]) {
        let start = out.count
        Base64Standard.append(bytes, to: &out)
        var end = out.count
        while end > start, out[end - 1] == UInt8(ascii: "=") { end -= 1 }
        out.removeSubrange(end..<out.count)
        for index in start..<out.count {
            if out[index] == UInt8(ascii: "+") { out[index] = UInt8(ascii: "-") }
            if out[index] == UInt8(ascii: "/") { out[index] = UInt8(ascii: "_") }
        }
    }
}
