import Foundation
import SWCredCore
import SWCredSodium

// Adding one item to a payload without building the others (issue 13: `swcred add` at 10,000
// items spent most of its time building 10,000 items, comparing and re-encoding them).
//
// Items keep their insertion order and the encoding is canonical, so the payload after adding an
// item is the payload before it with the item count raised by one and the item's encoding
// inserted after the last item: byte for byte what `encode` of the changed contents gives. Every
// check of `decode` still runs on the whole payload: each item's fields, the association records
// and passkeys, unique keys, and nothing after the end.
extension PayloadCodec {
    /// What a payload says about one item about to be added.
    struct AppendScan {
        /// Whether an item with the new item's key exists (a negative entry included).
        var keyExists = false
        /// Whether a "Passwords not saved" entry exists for the new item's server.
        var negativeEntryExists = false
        /// How many items the payload holds.
        var itemCount = 0
        /// Where the items end (the association record count begins).
        var itemsEnd = 0
    }

    /// Reads and checks the whole payload as ``decode(_:limits:)`` does, building no item, and
    /// says whether `item`'s key or a negative entry for its server is present.
    /// - Returns: `nil` when two items' key hashes collide, which only the full decode settles.
    /// - Throws: as ``decode(_:limits:)``.
    static func scanForAppend(
        _ bytes: [UInt8], limits: StoreLimits, item: InternetPasswordItem
    ) throws(SWCredError) -> AppendScan? {
        var r = ByteReader(bytes, errorCode: .corruptPayload)
        let head = try Head(&r, limits: limits)
        var scan = AppendScan(itemCount: head.itemCount)
        let wanted = keyHash(of: item, limits: limits)
        let server = Array(item.server.utf8)
        let negativeAccount = Array(InternetPasswordItem.negativeEntryAccount.utf8)
        var keyHashes = KeyHashSet(capacity: head.itemCount)
        var collided = false
        try r.withCursor { (c: inout ByteCursor) throws(SWCredError) in
            for _ in 0..<head.itemCount {
                let raw = try RawItem(&c, limits: limits)
                let hash = raw.keyHash(in: c.data)
                if !keyHashes.insert(hash) { collided = true }
                if hash == wanted, raw.hasKey(of: item, in: bytes) { scan.keyExists = true }
                if raw.isNegative, RawItem.Filter.equal(server, bytes, raw.server),
                    RawItem.Filter.equal(negativeAccount, bytes, raw.account)
                {
                    scan.negativeEntryExists = true
                }
            }
        }
        scan.itemsEnd = r.offset
        _ = try decodeRest(&r, head: head, items: [], limits: limits)
        return collided ? nil : scan
    }

    /// ``RawItem/keyHash(in:)`` of `item`'s key as it would be stored; `nil` when a key attribute
    /// would not read back within `limits` (no stored item, read within the same limits, has
    /// that key). The other attributes are left out, so that an item whose label or password is
    /// over a limit still finds its key (and is refused as a duplicate, as before validation).
    private static func keyHash(of item: InternetPasswordItem, limits: StoreLimits) -> Int? {
        var key = item
        key.label = ""
        key.comment = ""
        key.creator = ""
        key.isNegative = false
        key.secret = nil
        key.creationDate = Date(timeIntervalSince1970: 0)
        key.modificationDate = key.creationDate
        var entry = ByteWriter()
        encode(key, into: &entry)
        var r = ByteReader(entry.bytes, errorCode: .corruptPayload)
        guard let raw = try? RawItem(&r, limits: limits) else { return nil }
        return raw.keyHash(in: entry.bytes)
    }

    /// The payload with `item` (already validated, dates set) added after the last item.
    ///
    /// The result is written into one buffer of its exact size, so that no partly written copy
    /// of the payload (which holds every secret) is left behind by a reallocation; the caller
    /// wipes the result.
    static func appending(
        _ item: InternetPasswordItem, to bytes: [UInt8], scan: AppendScan
    ) -> [UInt8] {
        var entry = ByteWriter()
        encode(item, into: &entry)
        defer { Sodium.memzero(&entry.bytes) }
        var w = ByteWriter(capacity: bytes.count + entry.bytes.count)
        w.raw(bytes[0..<Head.itemCountOffset])
        w.u32(UInt32(scan.itemCount + 1))
        w.raw(bytes[(Head.itemCountOffset + 4)..<scan.itemsEnd])
        w.raw(entry.bytes)
        w.raw(bytes[scan.itemsEnd...])
        return w.bytes
    }
}
