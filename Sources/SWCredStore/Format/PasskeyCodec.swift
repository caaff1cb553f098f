import FoundationEssentials
import SWCredCore

/// The passkey section of payload schemas 2–4, appended after the association records.
///
/// `u32 count` (at least 1: contents without passkeys are written as schema 1), then per passkey:
/// `bytes16 credentialID`, `string16 rpID`, `bytes16 userHandle`, `string16 userName`,
/// `string16 displayName`, `u8 32` then the 32-byte private scalar, `i64 created`, `i64 lastUsed`,
/// and in schema 4 `u32 signCount`.
/// Passkeys are unique by (rpID, credentialID) and by (rpID, userHandle); a payload that breaks
/// either is corrupt. Canonical like the rest of the payload: a decoder that accepts bytes
/// re-encodes them to the same bytes.
enum PasskeyCodec {
    /// The smallest encoded passkey (every field at its minimum).
    static let minimumEncodedSize = 2 + 1 + 2 + 1 + 2 + 1 + 2 + 2 + 1 + 32 + 8 + 8

    /// - Parameter signCounts: write each passkey's `u32 signCount` after `lastUsed` (schema 4).
    static func encode(_ passkeys: [PasskeyItem], signCounts: Bool, into w: inout ByteWriter) {
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
            if signCounts { w.u32(passkey.signCount) }
        }
    }

    /// - Parameters:
    ///   - allowEmpty: the section may hold no passkey (schema 3 and 4, where it is always written;
    ///     schema 4 without a non-zero count is refused by ``StoreContents``'s schema check).
    ///   - signCounts: each passkey ends with a `u32 signCount` (schema 4).
    static func decode(
        _ r: inout ByteReader, limits: StoreLimits, itemCount: Int, allowEmpty: Bool = false, signCounts: Bool = false
    ) throws(SWCredError) -> [PasskeyItem] {
        let count = Int(try r.u32())
        guard count >= 1 || allowEmpty else { throw r.fail("a schema 2 payload without passkeys") }
        guard count + itemCount <= limits.maxItems else {
            throw SWCredError(.limitExceeded, "the file holds \(count + itemCount) items and passkeys; the limit is \(limits.maxItems)")
        }
        guard count <= r.remaining / (minimumEncodedSize + (signCounts ? 4 : 0)) else {
            throw r.fail("the passkey count exceeds the data")
        }
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
            let signCount = signCounts ? try r.u32() : 0
            guard !credentialID.isEmpty, !userHandle.isEmpty else { throw r.fail("an empty passkey identifier") }
            guard ids.insert(PairKey(rpID: Array(rpID.utf8), bytes: credentialID)).inserted,
                users.insert(PairKey(rpID: Array(rpID.utf8), bytes: userHandle)).inserted
            else { throw r.fail("the payload holds two passkeys with the same key") }
            passkeys.append(
                PasskeyItem(
                    credentialID: credentialID, rpID: rpID, userHandle: userHandle, userName: userName,
                    displayName: displayName, privateKey: privateKey, creationDate: created, lastUsedDate: lastUsed,
                    signCount: signCount))
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
