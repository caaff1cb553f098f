import FoundationEssentials
import SWCredCore
import SWCredSodium
import Crypto

/// The DER forms of a passkey's P-256 key in the browser-test documents: PKCS#8 (RFC 5208) for
/// the private key, SubjectPublicKeyInfo (RFC 5280) for the public key.
///
/// Only P-256 keys in PKCS#8 are read, and this type reads them (``ecPrivateKey(_:)``): a SEC 1
/// key, a P-384 key or another algorithm is refused, and swift-crypto sees the 32-byte scalar
/// only, from guarded memory (`SecureBytes`); export writes the DER here too (``pkcs8(raw:)``).
/// The copies this type makes and the `Data` swift-crypto returns are wiped; not reachable from
/// here: BoringSSL's own key, which it clears when freed.
enum PasskeyKeyDER {
    /// `INTEGER 0`, `SEQUENCE { OID id-ecPublicKey, OID prime256v1 }`, then the `OCTET STRING` tag:
    /// what follows a P-256 `PrivateKeyInfo`'s outer `SEQUENCE` header.
    static let p256PrivateKeyInfoPrefix: [UInt8] = [
        0x02, 0x01, 0x00, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01,
        0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x04,
    ]

    /// The PKCS#8 DER of a stored 32-byte scalar, with its public point, in the layout swift-crypto
    /// and Chromium write (`ECPrivateKey` version 1, no parameters, `[1]` the uncompressed point).
    /// Written here, into one buffer reserved up front, so the scalar is in no copy but the result,
    /// which the caller wipes.
    static func pkcs8(raw: [UInt8]) throws(SWCredError) -> [UInt8] {
        guard raw.count == 32 else { throw SWCredError(.internalError, "a stored passkey's key could not be read") }
        let point = try withKey(raw: raw) { key in [UInt8](key.publicKey.x963Representation) }
        let ecHeader: [UInt8] = [0x6D, 0x30, 0x6B, 0x02, 0x01, 0x01, 0x04, 0x20]
        let pointHeader: [UInt8] = [0xA1, 0x44, 0x03, 0x42, 0x00]
        var der: [UInt8] = []
        der.reserveCapacity(3 + p256PrivateKeyInfoPrefix.count + ecHeader.count + 32 + pointHeader.count + 65)
        der += [0x30, 0x81, 0x87]
        der += p256PrivateKeyInfoPrefix
        der += ecHeader
        der += raw
        der += pointHeader
        der += point
        return der
    }

    /// The SubjectPublicKeyInfo DER of a stored 32-byte scalar's public key.
    static func spki(raw: [UInt8]) throws(SWCredError) -> [UInt8] {
        try withKey(raw: raw) { key in Array(key.publicKey.derRepresentation) }
    }

    /// The 32-byte scalar of a P-256 PKCS#8 key (the caller wipes it), and its public key's SPKI DER.
    ///
    /// The DER is walked here, not by swift-crypto (whose `derRepresentation` initialiser copies
    /// the whole key into arrays nobody wipes): `PrivateKeyInfo` version 0 with the P-256
    /// algorithm, then an RFC 5915 `ECPrivateKey` of version 1 with a 32-byte key, optionally the
    /// `prime256v1` parameters and the uncompressed public key, which must be the scalar's; every
    /// length exact, nothing after. Only the scalar reaches swift-crypto, from guarded memory.
    /// - Throws: `malformedInput` naming `field` (never the key's bytes).
    static func scalar(pkcs8 der: [UInt8], field: String) throws(SWCredError) -> (raw: [UInt8], spki: [UInt8]) {
        let bad = SWCredError(.malformedInput, "\(field) is not a P-256 private key in PKCS#8 DER")
        guard let parts = ecPrivateKey(der) else { throw bad }
        do {
            let secure = try SecureBytes(copying: der[parts.scalar])
            let key = try secure.withUnsafeBytes { bytes in try P256.Signing.PrivateKey(rawRepresentation: bytes) }
            if let point = parts.publicKey, !der[point].elementsEqual(key.publicKey.x963Representation) {
                throw bad
            }
            return (Array(der[parts.scalar]), Array(key.publicKey.derRepresentation))
        } catch {
            throw bad
        }
    }

    /// `[0] { OID prime256v1 }`: the optional parameters of a P-256 `ECPrivateKey`.
    static let ecParameters: [UInt8] = [0xA0, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]

    /// Where the scalar and the optional public point (`04 || X || Y`) are in a P-256 PKCS#8 key,
    /// or `nil` when `der` is anything else.
    static func ecPrivateKey(_ der: [UInt8]) -> (scalar: Range<Int>, publicKey: Range<Int>?)? {
        // The outer SEQUENCE: short form, or 0x81 (a P-256 key is < 256 bytes).
        guard der.count >= 2, der[0] == 0x30 else { return nil }
        var index = 2
        var length = Int(der[1])
        if der[1] == 0x81, der.count > 2, der[2] >= 0x80 {
            length = Int(der[2])
            index = 3
        } else if der[1] >= 0x80 {
            return nil
        }
        guard index + length == der.count else { return nil }
        func take(_ expected: [UInt8]) -> Bool {
            guard der.count - index >= expected.count, der[index..<(index + expected.count)].elementsEqual(expected)
            else { return false }
            index += expected.count
            return true
        }
        // version 0, the algorithm, the OCTET STRING's tag and its (short) length to the end.
        guard take(p256PrivateKeyInfoPrefix), index < der.count, der[index] < 0x80,
            index + 1 + Int(der[index]) == der.count
        else { return nil }
        index += 1
        // ECPrivateKey: SEQUENCE to the end, version 1, the 32-byte key.
        guard der.count - index >= 2, der[index] == 0x30, der[index + 1] < 0x80,
            index + 2 + Int(der[index + 1]) == der.count
        else { return nil }
        index += 2
        guard take([0x02, 0x01, 0x01, 0x04, 0x20]), der.count - index >= 32 else { return nil }
        let scalar = index..<(index + 32)
        index += 32
        _ = take(ecParameters)
        var publicKey: Range<Int>?
        if take([0xA1, 0x44, 0x03, 0x42, 0x00, 0x04]) {
            guard der.count - index >= 64 else { return nil }
            publicKey = (index - 1)..<(index + 64)
            index += 64
        }
        return index == der.count ? (scalar, publicKey) : nil
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
