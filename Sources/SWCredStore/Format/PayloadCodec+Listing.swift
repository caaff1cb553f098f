import FoundationEssentials
package import SWCredCore

/// One item of a listing, as `swcred list` prints it: server, port, account and whether it is a
/// "Passwords not saved" entry. Nothing else of the item is reachable from it, its secret least
/// of all.
///
/// `server` and `account` are views of the decrypted payload (valid UTF-8, checked by the
/// decode), valid only during the call that hands the value over: the payload's buffer is wiped
/// when the read returns. Copy the bytes out, never the views.
package struct ListedItem {
    /// `kSecAttrServer`'s UTF-8 bytes (never empty).
    package let server: UnsafeBufferPointer<UInt8>
    /// `kSecAttrAccount`'s UTF-8 bytes.
    package let account: UnsafeBufferPointer<UInt8>
    /// `kSecAttrPort`; 0 when unspecified.
    package let port: UInt16
    /// Whether this is a "Passwords not saved" entry.
    package let isNegative: Bool
}

/// A payload's listed items, in store order, valid only during the call that hands them over
/// (see ``ListedItem``).
package struct ListedItems {
    fileprivate let buffer: UnsafeBufferPointer<UInt8>
    fileprivate let entries: [PayloadCodec.ListedRanges]

    /// How many items are listed.
    package var count: Int { entries.count }

    /// Calls `body` with each item, in store order.
    package func forEach(_ body: (ListedItem) -> Void) {
        for entry in entries {
            let server = Int(entry.server)
            let account = Int(entry.account)
            body(
                ListedItem(
                    server: UnsafeBufferPointer(rebasing: buffer[server..<(server + Int(entry.serverCount))]),
                    account: UnsafeBufferPointer(rebasing: buffer[account..<(account + Int(entry.accountCount))]),
                    port: entry.port, isNegative: entry.isNegative))
        }
    }
}

extension PayloadCodec {
    /// Where a listed item's fields lie in the payload, in 16 bytes (a file is at most
    /// ``StoreLimits/fileSizeCeiling``, 64 MiB, and a field's length is a u16): at 10,000 items,
    /// 40-byte ranges were 240 KB more to fault in.
    fileprivate struct ListedRanges {
        var server, account: UInt32
        var serverCount, accountCount, port: UInt16
        var isNegative: Bool

        init(_ raw: RawItem) {
            server = UInt32(truncatingIfNeeded: raw.server.lowerBound)
            account = UInt32(truncatingIfNeeded: raw.account.lowerBound)
            serverCount = UInt16(truncatingIfNeeded: raw.server.count)
            accountCount = UInt16(truncatingIfNeeded: raw.account.count)
            port = raw.port
            isNegative = raw.isNegative
        }
    }

    /// Lists the payload's items, in store order, without building them: `visit` is called with the
    /// items of `site` (its host as exact bytes and, when it names one, its port; every item
    /// without a site), after the **whole** payload has passed every check of the full decode
    /// (``decode(_:limits:)``): limits, UTF-8, codes, dates, the secret markers, unique item
    /// keys (hashed as for a listing decode; a repeat is settled by the full decode), the
    /// association records and passkeys that follow, and the end. When a check fails, `visit` is
    /// not called.
    /// - Throws: as ``decode(_:limits:)``.
    static func list(
        _ bytes: [UInt8], payload: Range<Int>, limits: StoreLimits, site: SiteName?, _ visit: (ListedItems) -> Void
    ) throws(SWCredError) {
        var r = ByteReader(bytes, range: payload, errorCode: .corruptPayload)
        let head = try Head(&r, limits: limits)
        let host = site.map { Array($0.host.utf8) }
        let port = site?.port
        var keyHashes = KeyHashes(capacity: head.itemCount)
        var listed: [ListedRanges] = []
        if site == nil { listed.reserveCapacity(head.itemCount) }
        try r.withCursor { (c: inout ByteCursor) throws(SWCredError) in
            for _ in 0..<head.itemCount {
                let raw = try RawItem(&c, limits: limits)
                keyHashes.append(raw.keyHash(in: c.data))
                if let host, !RawItem.Filter.equal(host, bytes, raw.server) { continue }
                if let port, port != raw.port { continue }
                listed.append(ListedRanges(raw))
            }
        }
        if keyHashes.containsRepeat() {
            // Two keys hash alike: the full decode compares them whole (and throws corruptPayload
            // when they are equal); it also checks everything after the items.
            _ = try decode(bytes, payload: payload, limits: limits, selection: .everything)
        } else {
            _ = try decodeRest(&r, head: head, items: [], limits: limits, keysChecked: true)
        }
        bytes.withUnsafeBufferPointer { buffer in visit(ListedItems(buffer: buffer, entries: listed)) }
    }
}

extension KeychainStore {
    /// Reads and verifies the current file without taking the lock, and lists its items
    /// (``PayloadCodec/list(_:payload:limits:site:_:)``) while the plaintext exists.
    /// - Returns: the generation read.
    /// - Throws: as ``snapshot(selection:)``.
    @discardableResult
    package func list(site: SiteName?, _ visit: (ListedItems) -> Void) throws(SWCredError) -> UInt64 {
        let limits = options.limits
        return try read { (plaintext, header) throws(SWCredError) in
            try PayloadCodec.list(plaintext, payload: header.payloadRange, limits: limits, site: site, visit)
        }.header.generation
    }
}

extension StoreSession {
    /// Lists the store's items (every item, or those of `site`) without building them and
    /// without their secrets: `visit` sees the items' listing fields, in store order, once the
    /// whole payload has been verified and checked as every read checks it (no lock; store.md §6).
    /// - Returns: the generation read.
    /// - Throws: as ``read(selection:)``.
    @discardableResult
    package func list(site: SiteName?, _ visit: (ListedItems) -> Void) throws(SWCredError) -> UInt64 {
        try read(
            reading: { (store) throws(SWCredError) in try store.list(site: site, visit) },
            opening: { (path, source, options) throws(SWCredError) in
                let (store, _, header) = try KeychainStore.openAndRead(at: path, keySource: source, options: options) {
                    (plaintext, header) throws(SWCredError) in
                    try PayloadCodec.list(
                        plaintext, payload: header.payloadRange, limits: options.limits, site: site, visit)
                }
                return (store, header.generation)
            })
    }
}
