import FoundationEssentials
import SWCredCore
import SWCredSodium

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        /// Where the item count lies in the payload (it depends on the schema).
        var itemCountOffset = 13
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
        try scanForAppend(bytes, payload: 0..<bytes.count, limits: limits, item: item)
    }

    /// ``scanForAppend(_:limits:item:)`` of the payload `bytes[payload]` (inside a whole file's
    /// buffer); the scan's offsets are those of `bytes`.
    static func scanForAppend(
        _ bytes: [UInt8], payload: Range<Int>, limits: StoreLimits, item: InternetPasswordItem
    ) throws(SWCredError) -> AppendScan? {
        var r = ByteReader(bytes, range: payload, errorCode: .corruptPayload)
        let head = try Head(&r, limits: limits)
        var scan = AppendScan(itemCount: head.itemCount, itemCountOffset: head.itemCountOffset)
        let wanted = keyHash(of: item, limits: limits)
        let server = Array(item.server.utf8)
        let negativeAccount = Array(InternetPasswordItem.negativeEntryAccount.utf8)
        var keyHashes = KeyHashes(capacity: head.itemCount)
        try r.withCursor { (c: inout ByteCursor) throws(SWCredError) in
            for _ in 0..<head.itemCount {
                let raw = try RawItem(&c, limits: limits)
                let hash = raw.keyHash(in: c.data)
                keyHashes.append(hash)
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
        return keyHashes.containsRepeat() ? nil : scan
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

    /// Adds the item encoded as `entry` after the last item of the payload `buffer[payload]`, in
    /// place: the item count is raised, the bytes after the items move up by `entry.count` (into
    /// the room `buffer` has after the payload; what was there is overwritten), and `entry` goes
    /// into the gap. The payload becomes `buffer[payload.lowerBound..<(payload.upperBound +
    /// entry.count)]`, byte for byte the encoding of the contents with the item added. `scan` is
    /// the scan of that payload. Nothing is allocated, so no copy of the secrets is left behind.
    /// - Throws: `internalError` when `buffer` lacks the room (nothing is changed then).
    static func insert(
        _ entry: [UInt8], into buffer: inout [UInt8], payload: Range<Int>, scan: AppendScan
    ) throws(SWCredError) {
        guard payload.lowerBound >= 0, payload.upperBound + entry.count <= buffer.count,
            scan.itemsEnd >= payload.lowerBound + scan.itemCountOffset + 4, scan.itemsEnd <= payload.upperBound
        else {
            throw SWCredError(.internalError, "no room to insert an item in place")
        }
        let countOffset = payload.lowerBound + scan.itemCountOffset
        buffer.withUnsafeMutableBytes { b in
            guard let base = b.baseAddress else { return }
            b.storeBytes(of: UInt32(scan.itemCount + 1).littleEndian, toByteOffset: countOffset, as: UInt32.self)
            memmove(base + scan.itemsEnd + entry.count, base + scan.itemsEnd, payload.upperBound - scan.itemsEnd)
            entry.withUnsafeBytes { e in
                if let source = e.baseAddress { (base + scan.itemsEnd).copyMemory(from: source, byteCount: e.count) }
            }
        }
    }
}
