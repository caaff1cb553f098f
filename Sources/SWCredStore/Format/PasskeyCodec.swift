import FoundationEssentials
import SWCredCore

/// The passkey section of payload schema 2, appended after the association records.
///
/// `u32 count` (at least 1: contents without passkeys are written as schema 1), then per passkey:
/// `bytes16 credentialID`, `string16 rpID`, `bytes16 userHandle`, `string16 userName`,
/// `string16 displayName`, `u8 32` then the 32-byte private scalar, `i64 created`, `i64 lastUsed`.
/// Passkeys are unique by (rpID, credentialID) and by (rpID, userHandle); a payload that breaks
/// either is corrupt. Canonical like the rest of the payload: a decoder that accepts bytes
/// re-encodes them to the same bytes.
enum PasskeyCodec {
    /// The smallest encoded passkey (every field at its minimum).
    static let minimumEncodedSize = 2 + 1 + 2 + 1 + 2 + 1 + 2 + 2 + 1 + 32 + 8 + 8

    static func encode(_ passkeys: [PasskeyItem], into w: inout ByteWriter) {
        w.u32(UInt32(passkeys.count))
        for passkey in passkeys {
            w.bytes16(passkey.credentialID)
            w.string16(passkey.rpID)
            w.bytes16(passkey.userHandle)
            w.string16(passkey.userName)
            w.string16(passkey.displayName)
            w.u8(UInt8(passkey.privateKey.count))
            w.raw(passkey.privateKey)
            w.i64(PayloadCodec.milliseconds(passkey.creationDate))
            w.i64(PayloadCodec.milliseconds(passkey.lastUsedDate))
        }
    }

    /// - Parameter allowEmpty: the section may hold no passkey (schema 3, where it is always written).
    static func decode(
        _ r: inout ByteReader, limits: StoreLimits, itemCount: Int, allowEmpty: Bool = false
    ) throws(SWCredError) -> [PasskeyItem] {
        let count = Int(try r.u32())
        guard count >= 1 || allowEmpty else { throw r.fail("a schema 2 payload without passkeys") }
        guard count + itemCount <= limits.maxItems else {
            throw SWCredError(.limitExceeded, "the file holds \(count + itemCount) items and passkeys; the limit is \(limits.maxItems)")
        }
        guard count <= r.remaining / minimumEncodedSize else { throw r.fail("the passkey count exceeds the data") }
        var passkeys: [PasskeyItem] = []
        passkeys.reserveCapacity(count)
        var ids = Set<PairKey>()
        var users = Set<PairKey>()
        for _ in 0..<count {
            let credentialID = try r.bytes16(max: PasskeyItem.maxCredentialIDBytes)
            let rpID = try r.string16("rpID", min: 1, max: 253)
            let userHandle = try r.bytes16(max: PasskeyItem.maxUserHandleBytes)
            let userName = try r.string16("userName", max: PasskeyItem.maxNameBytes)
            let displayName = try r.string16("displayName", max: PasskeyItem.maxNameBytes)
            guard try r.u8() == UInt8(PasskeyItem.privateKeyLength) else { throw r.fail("bad passkey key length") }
            let privateKey = Array(try r.take(PasskeyItem.privateKeyLength))
            let created = try date(&r)
            let lastUsed = try date(&r)
            guard !credentialID.isEmpty, !userHandle.isEmpty else { throw r.fail("an empty passkey identifier") }
            guard ids.insert(PairKey(rpID: Array(rpID.utf8), bytes: credentialID)).inserted,
                users.insert(PairKey(rpID: Array(rpID.utf8), bytes: userHandle)).inserted
            else { throw r.fail("the payload holds two passkeys with the same key") }
            passkeys.append(
                PasskeyItem(
                    credentialID: credentialID, rpID: rpID, userHandle: userHandle, userName: userName,
                    displayName: displayName, privateKey: privateKey, creationDate: created, lastUsedDate: lastUsed))
        }
        return passkeys
    }

    private struct PairKey: Hashable {
        let rpID: [UInt8]
        let bytes: [UInt8]
    }

    private static func date(_ r: inout ByteReader) throws(SWCredError) -> Date {
        let ms = try r.i64()
        guard ms >= -PayloadCodec.maxMilliseconds, ms <= PayloadCodec.maxMilliseconds else {
            throw r.fail("a date is out of range")
        }
        return Date(timeIntervalSince1970: Double(ms) / 1000)
    }
}
