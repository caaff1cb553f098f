import Crypto

/// Authenticator data (WebAuthn Level 3 §6.1) as iCloud Keychain writes it (PK-4 Decision):
/// flags UP, UV, BE and BS always set (AT on registration), signature counter 0 (an imported
/// passkey's assertions carry its advancing count: `PasskeySignCount`), AAGUID all zeros.
package struct AuthenticatorData: Sendable, Hashable {
    /// User present.
    static let flagUP: UInt8 = 0x01
    /// User verified.
    static let flagUV: UInt8 = 0x04
    /// Backup eligible.
    static let flagBE: UInt8 = 0x08
    /// Backed up.
    static let flagBS: UInt8 = 0x10
    /// Attested credential data included.
    static let flagAT: UInt8 = 0x40
    // ED (0x80, extension data) is never set: iCloud Keychain returns no authenticator extensions.

    /// The AAGUID of iCloud Keychain passkeys: sixteen zero bytes.
    package static let aaguid = [UInt8](repeating: 0, count: 16)

    /// SHA-256 of the RP ID.
    static func rpIDHash(_ rpID: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(rpID.utf8)))
    }

    /// Authenticator data for a registration: rpIdHash, flags (UP UV BE BS AT), counter 0, and the
    /// attested credential data (AAGUID, credential ID length and ID, COSE key).
    package static func registration(rpID: String, credentialID: [UInt8], coseKey: [UInt8]) -> [UInt8] {
        var out = rpIDHash(rpID)
        out.append(flagUP | flagUV | flagBE | flagBS | flagAT)
        out += [0, 0, 0, 0]
        out += aaguid
        out += [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)]
        out += credentialID
        out += coseKey
        return out
    }

    /// Authenticator data for an assertion: rpIdHash, flags (UP UV BE BS), and the signature
    /// counter as a 4-byte big-endian integer (0 for a passkey `register` made; `PasskeySignCount`).
    package static func assertion(rpID: String, signCount: UInt32 = 0) -> [UInt8] {
        rpIDHash(rpID) + [flagUP | flagUV | flagBE | flagBS] + bigEndian(signCount)
    }

    /// `value` as 4 big-endian bytes (WebAuthn §6.1: `signCount`).
    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
         UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    /// The COSE_Key of a P-256 public key (RFC 9053 §7.1.1, kty EC2, alg ES256, crv P-256), keys in
    /// CTAP2 canonical order: 1, 3, -1, -2, -3.
    static func coseKey(_ publicKey: P256.Signing.PublicKey) -> [UInt8] {
        let point = Array(publicKey.x963Representation)  // 0x04 || x || y
        var cbor = CBORWriter()
        cbor.mapHeader(5)
        cbor.int(1)
        cbor.int(2)  // kty: EC2
        cbor.int(3)
        cbor.int(-7)  // alg: ES256
        cbor.int(-1)
        cbor.int(1)  // crv: P-256
        cbor.int(-2)
        cbor.byteString(point[1..<33])
        cbor.int(-3)
        cbor.byteString(point[33..<65])
        return cbor.bytes
    }

    /// The attestation object `{"fmt":"none","attStmt":{},"authData":…}` (§6.5.4, §8.7), keys in
    /// CTAP2 canonical order.
    package static func attestationObject(authData: [UInt8]) -> [UInt8] {
        var cbor = CBORWriter()
        cbor.mapHeader(3)
        cbor.text("fmt")
        cbor.text("none")
        cbor.text("attStmt")
        cbor.mapHeader(0)
        cbor.text("authData")
        cbor.byteString(authData)
        return cbor.bytes
    }
}
