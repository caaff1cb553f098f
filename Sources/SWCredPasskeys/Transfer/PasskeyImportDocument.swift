package import SWCredCore
import SWCredSodium
import SWCredStore

/// A browser-test document that `passkey import --from playwright|cdp` reads (cli.md "Browser
/// tests"), every credential checked before the store is opened.
///
/// Checks, each a `malformedInput` (exit 65) naming the credential and member, never a value:
/// the document is at most 1 MiB of JSON (nesting 32, no repeated member); its shape (Playwright:
/// an object whose `credentials` is an array of objects, `cookies` and `origins` ignored; CDP: an
/// array of objects); the members' types; the encodings (base64url for Playwright, standard
/// base64 with padding for CDP); a credential ID of 1–1023 bytes, a user handle of 1–64 bytes, a
/// valid RP ID (a domain), names of at most 512 bytes; a P-256 private key in PKCS#8 DER; for
/// Playwright a `publicKey` that is that key's SPKI; `signCount` an integer 0…2³²−1 (CDP's −1,
/// "no counter", reads as 0); CDP's `isResidentCredential` true. Unknown members are ignored.
package struct PasskeyImportDocument: Sendable {
    /// The largest document read.
    package static let maxBytes = 1 << 20
    /// The JSON reader's limits for a document.
    static let limits = JSONReader.Limits(
        maxBytes: maxBytes, maxDepth: 32, maxStringBytes: maxBytes, maxMembers: 65_536)

    /// The format it was read as.
    package let format: PasskeyTransferFormat
    /// The credentials, in document order.
    package private(set) var credentials: [ImportedPasskey]

    /// Reads and checks a document.
    /// - Throws: `malformedInput` (65).
    package init(json: [UInt8], format: PasskeyTransferFormat) throws(SWCredError) {
        self.format = format
        guard json.count <= Self.maxBytes else {
            throw SWCredError(.malformedInput, "the \(format.rawValue) document is over \(Self.maxBytes) bytes")
        }
        let root: JSONValue
        do throws(JSONReader.Failure) {
            root = try JSONReader(limits: Self.limits, duplicateKeys: .refuse).read(json).value
        } catch {
            throw SWCredError(
                .malformedInput, "malformed \(format.rawValue) JSON at byte \(error.offset): \(error.message)")
        }
        let elements: [JSONValue]
        switch format {
        case .playwright:
            guard let object = root.objectValue else {
                throw SWCredError(.malformedInput, "a Playwright storage state is a JSON object, not \(root.typeName)")
            }
            guard let list = object["credentials"]?.arrayValue else {
                throw SWCredError(
                    .malformedInput,
                    "the storage state has no \"credentials\" array (storageState({credentials: true}))")
            }
            elements = list
        case .cdp:
            guard let list = root.arrayValue else {
                throw SWCredError(
                    .malformedInput,
                    "a CDP document is a JSON array of WebAuthn.Credential objects, not \(root.typeName)")
            }
            elements = list
        }
        var credentials: [ImportedPasskey] = []
        credentials.reserveCapacity(elements.count)
        do throws(SWCredError) {
            for (index, element) in elements.enumerated() {
                credentials.append(try Self.credential(element, index: index, format: format))
            }
        } catch {
            for index in credentials.indices { Sodium.memzero(&credentials[index].passkey.privateKey) }
            throw error
        }
        self.credentials = credentials
    }

    /// Wipes the private keys.
    package mutating func wipe() {
        for index in credentials.indices { Sodium.memzero(&credentials[index].passkey.privateKey) }
    }

    // MARK: One credential

    private static func credential(_ value: JSONValue, index: Int, format: PasskeyTransferFormat) throws(SWCredError)
        -> ImportedPasskey
    {
        let place = format == .playwright ? "credentials[\(index)]" : "[\(index)]"
        func fail(_ why: String) -> SWCredError { SWCredError(.malformedInput, "\(place)\(why)") }
        guard let object = value.objectValue else { throw fail(" is \(value.typeName), not an object") }
        func string(_ key: String) throws(SWCredError) -> String {
            guard let member = object[key] else { throw fail(" has no \"\(key)\"") }
            guard let text = member.stringValue else { throw fail(".\(key) is \(member.typeName), not a string") }
            return text
        }
        func binary(_ key: String, max: Int) throws(SWCredError) -> [UInt8] {
            let text = try string(key)
            let decoded = format == .playwright ? Base64URL.decode(text) : Base64Standard.decode(text)
            let encoding = format == .playwright ? "base64url" : "standard base64 with padding"
            guard let decoded else { throw fail(".\(key) is not \(encoding)") }
            guard !decoded.isEmpty, decoded.count <= max else { throw fail(".\(key) must be 1-\(max) bytes") }
            return decoded
        }
        func name(_ key: String) throws(SWCredError) -> String? {
            guard let member = object[key], member != .null else { return nil }
            guard let text = member.stringValue else { throw fail(".\(key) is \(member.typeName), not a string") }
            guard text.utf8.count <= PasskeyItem.maxNameBytes else { throw fail(".\(key) is over 512 bytes") }
            return text
        }

        let idKey = format == .playwright ? "id" : "credentialId"
        let credentialID = try binary(idKey, max: PasskeyItem.maxCredentialIDBytes)
        let rpText = try string("rpId")
        guard let rpID = RelyingPartyID.canonical(rpText), rpID == rpText else {
            throw fail(".rpId is not a valid RP ID (a lowercase domain)")
        }
        let userHandle = try binary("userHandle", max: PasskeyItem.maxUserHandleBytes)
        let signCount = try count(object["signCount"], format: format, fail: fail)
        if format == .cdp {
            guard let resident = object["isResidentCredential"] else { throw fail(" has no \"isResidentCredential\"") }
            guard resident == .bool(true) else {
                throw fail(".isResidentCredential must be true (a passkey is discoverable)")
            }
        }
        var der = try binary("privateKey", max: 4096)
        defer { Sodium.memzero(&der) }
        // The names first, so that the only failure after the key is decoded is the public key's.
        let userName = format == .cdp ? try name("userName") : nil
        let displayName = format == .cdp ? try name("userDisplayName") : nil
        let publicKey = format == .playwright ? try binary("publicKey", max: 4096) : nil
        var key = try PasskeyKeyDER.scalar(pkcs8: der, field: "\(place).privateKey")
        if let publicKey, publicKey != key.spki {
            Sodium.memzero(&key.raw)
            throw fail(".publicKey is not the public key of .privateKey (SPKI DER)")
        }
        return ImportedPasskey(
            passkey: PasskeyItem(
                credentialID: credentialID, rpID: rpID, userHandle: userHandle, userName: "", displayName: "",
                privateKey: key.raw, signCount: signCount),
            userName: userName, displayName: displayName)
    }

    /// `signCount`: an integer 0…2³²−1; CDP's −1 (no counter) reads as 0.
    private static func count(
        _ value: JSONValue?, format: PasskeyTransferFormat, fail: (String) -> SWCredError
    ) throws(SWCredError) -> UInt32 {
        guard let value else { throw fail(" has no \"signCount\"") }
        guard let number = value.numberValue else { throw fail(".signCount is \(value.typeName), not a number") }
        if format == .cdp, number == -1 { return 0 }
        guard number >= 0, number <= Double(UInt32.max), number.rounded(.towardZero) == number else {
            throw fail(".signCount must be an integer 0-4294967295")
        }
        return UInt32(number)
    }
}
