import FoundationEssentials
import SWCredCore
import SWCredSodium
import Crypto

/// The DER forms of a passkey's P-256 key in the browser-test documents: PKCS#8 (RFC 5208) for
/// the private key, SubjectPublicKeyInfo (RFC 5280) for the public key, both from swift-crypto.
///
/// Only P-256 keys in PKCS#8 are read: the `PrivateKeyInfo` must begin with version 0 and the
/// algorithm `id-ecPublicKey` with the curve `prime256v1`, so a SEC 1 key, a P-384 key or another
/// algorithm is refused before swift-crypto parses it. Keys pass through guarded memory
/// (`SecureBytes`); the copies this type makes and the `Data` swift-crypto returns are wiped. Not
/// reachable from here: the copies swift-crypto makes inside `derRepresentation` (SwiftASN1's
/// arrays, in both directions), and BoringSSL's own key, which it clears when freed.
enum PasskeyKeyDER {
    /// `INTEGER 0`, `SEQUENCE { OID id-ecPublicKey, OID prime256v1 }`, then the `OCTET STRING` tag:
    /// what follows a P-256 `PrivateKeyInfo`'s outer `SEQUENCE` header.
    static let p256PrivateKeyInfoPrefix: [UInt8] = [
        0x02, 0x01, 0x00, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01,
        0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x04,
    ]

    /// The PKCS#8 DER of a stored 32-byte scalar (with the public key, as swift-crypto writes it).
    /// The caller wipes the result.
    static func pkcs8(raw: [UInt8]) throws(SWCredError) -> [UInt8] {
        try withKey(raw: raw) { key in
            var der = key.derRepresentation
            defer { wipe(&der) }
            return [UInt8](der)
        }
    }

    /// The SubjectPublicKeyInfo DER of a stored 32-byte scalar's public key.
    static func spki(raw: [UInt8]) throws(SWCredError) -> [UInt8] {
        try withKey(raw: raw) { key in Array(key.publicKey.derRepresentation) }
    }

    /// The 32-byte scalar of a P-256 PKCS#8 key (the caller wipes it), and its public key's SPKI DER.
    /// - Throws: `malformedInput` naming `field` (never the key's bytes).
    static func scalar(pkcs8 der: [UInt8], field: String) throws(SWCredError) -> (raw: [UInt8], spki: [UInt8]) {
        let bad = SWCredError(.malformedInput, "\(field) is not a P-256 private key in PKCS#8 DER")
        guard der.count >= 2, der[0] == 0x30 else { throw bad }
        // The outer SEQUENCE's length: short form, or 0x81/0x82 long form (P-256 keys are < 256 bytes).
        var offset = 2
        var length = Int(der[1])
        if der[1] == 0x81, der.count > 2 {
            length = Int(der[2])
            offset = 3
        } else if der[1] >= 0x80 {
            throw bad
        }
        guard offset + length == der.count,
            der.count >= offset + p256PrivateKeyInfoPrefix.count,
            Array(der[offset..<(offset + p256PrivateKeyInfoPrefix.count)]) == p256PrivateKeyInfoPrefix
        else { throw bad }
        do {
            let secure = try SecureBytes(copying: der)
            let key = try secure.withUnsafeBytes { bytes in try P256.Signing.PrivateKey(derRepresentation: bytes) }
            var raw = key.rawRepresentation
            defer { wipe(&raw) }
            return ([UInt8](raw), Array(key.publicKey.derRepresentation))
        } catch {
            throw bad
        }
    }

    /// Wipes a secret `Data` that swift-crypto returned, in place: the caller's variable holds the
    /// only reference, so no copy is made and the wipe reaches the bytes swift-crypto wrote.
    private static func wipe(_ data: inout Data) {
        data.withUnsafeMutableBytes { buffer in Sodium.memzero(buffer) }
    }

    private static func withKey<R>(
        raw: [UInt8], _ body: (P256.Signing.PrivateKey) -> R
    ) throws(SWCredError) -> R {
        do {
            let secure = try SecureBytes(copying: raw)
            let key = try secure.withUnsafeBytes { bytes in try P256.Signing.PrivateKey(rawRepresentation: bytes) }
            return body(key)
        } catch {
            throw SWCredError(.internalError, "a stored passkey's key could not be read")
        }
    }
}
