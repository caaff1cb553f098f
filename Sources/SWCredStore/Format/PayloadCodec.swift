import FoundationEssentials
import SWCredCore
#if canImport(Glibc)
import Glibc
#endif

/// The canonical binary encoding of ``StoreContents`` (payload schema 1). See ``StoreFormat``.
///
/// Every integer is fixed-width little-endian, every Boolean is exactly 0 or 1, strings are
/// valid UTF-8 with a 16-bit length, dates are milliseconds since 1970 (signed 64-bit, at most
/// 2^50 in magnitude), sets are bit masks, and nothing may follow the last record. A decoder
/// that accepts a byte string therefore re-encodes it to the same bytes (T13).
enum PayloadCodec {
    /// The largest date magnitude, in milliseconds (about ±35,000 years; covers distant past/future).
    static let maxMilliseconds: Int64 = 1 << 50

    // MARK: Encode

    static func encode(_ contents: StoreContents) -> [UInt8] {
        var w = ByteWriter(capacity: 64 + contents.items.count * 160 + contents.associationRecords.count * 128)
        w.u16(contents.schemaVersion)
        w.i64(milliseconds(contents.creationDate))
        w.bool(contents.settings.autoFillEnabled)
        w.bool(contents.settings.developerMode)
        w.bool(contents.settings.managedDevice)
        let schema = contents.schemaVersion
        if schema >= 3 { w.u8(Head.storeFlags(rollbackProtection: contents.rollbackProtection)) }
        w.u32(UInt32(contents.items.count))
        for item in contents.items { encode(item, into: &w) }
        w.u32(UInt32(contents.associationRecords.count))
        for record in contents.associationRecords { encode(record, into: &w) }
        // Schema 2: a non-empty passkey section; schema 3: the section, empty or not; schema 4: the
        // section with a sign count per passkey.
        if schema >= 3 || !contents.passkeys.isEmpty {
            PasskeyCodec.encode(contents.passkeys, signCounts: schema >= 4, into: &w)
        }
        return w.bytes
    }

    static func encode(_ item: InternetPasswordItem, into w: inout ByteWriter) {
        w.string16(item.server)
        w.string16(item.account)
        w.u16(item.port)
        w.string8(item.protocolCode)
        w.string8(item.authenticationType)
        w.string16(item.path)
        w.string16(item.securityDomain)
        w.string16(item.label)
        w.string16(item.comment)
        w.string8(item.creator)
        w.string16(item.accessGroup)
        w.bool(item.synchronizable)
        w.bool(item.isNegative)
        w.i64(milliseconds(item.creationDate))
        w.i64(milliseconds(item.modificationDate))
        if let secret = item.secret {
            w.u8(1)
            w.bytes16(secret)
        } else {
            w.u8(0)
        }
    }

    // MARK: Decode


    /// Decodes a payload, applying `limits`.
    /// - Throws: `unsupportedFormat` for a newer schema; `limitExceeded` for more items or records
    ///   than the limits allow; `corruptPayload` for anything else that is not a canonical encoding.
    static func decode(_ bytes: [UInt8], limits: StoreLimits) throws(SWCredError) -> StoreContents {
        try decode(bytes, limits: limits, selection: .everything)
    }

    /// Decodes a payload, building only the items `selection` asks for (spec/store.md §4.6 step
    /// 10 still covers the whole payload: every item is read and checked, only the selected ones
    /// become ``InternetPasswordItem`` values). With ``ReadSelection/everything`` this is the full
    /// decode.
    /// - Throws: as ``decode(_:limits:)``.
    static func decode(_ bytes: [UInt8], limits: StoreLimits, selection: ReadSelection) throws(SWCredError)
        -> StoreContents
    {
        try decode(bytes, payload: 0..<bytes.count, limits: limits, selection: selection)
    }

    /// ``decode(_:limits:selection:)`` of the payload `bytes[payload]` (inside a whole file's
    /// buffer).
    static func decode(
        _ bytes: [UInt8], payload: Range<Int>, limits: StoreLimits, selection: ReadSelection
    ) throws(SWCredError) -> StoreContents {
        var r = ByteReader(bytes, range: payload, errorCode: .corruptPayload)
        let head = try Head(&r, limits: limits)
        let itemCount = head.itemCount
        var items: [InternetPasswordItem] = []
        let filter = selection.items.map { RawItem.Filter($0) }
        if let filter {
            // Only some items are built, so the duplicate-key check (StoreContents.init, for the
            // built ones) runs here on the raw keys of all of them; a hash collision is settled
            // by the full decode, which compares whole keys.
            var keyHashes = KeyHashes(capacity: itemCount)
            try r.withCursor { (c: inout ByteCursor) throws(SWCredError) in
                for _ in 0..<itemCount {
                    let raw = try RawItem(&c, limits: limits)
                    keyHashes.append(raw.keyHash(in: c.data))
                    if filter.accepts(raw, in: bytes) {
                        let item = raw.item(in: bytes, secrets: selection.secrets)
                        if filter.query.matches(item) { items.append(item) }
                    }
                }
            }
            if keyHashes.containsRepeat() {
                return try decode(bytes, payload: payload, limits: limits, selection: .everything)
            }
        } else {
            // A listing (every item, no secrets) is only read, never changed, so its contents get
            // no item index (building it was a quarter of `swcred list` at 10,000 items): the
            // duplicate-key check runs on the raw keys' hashes, as for a filtered read, and a
            // repeat is settled by the full decode.
            let listing = !selection.isEverything
            var keyHashes = KeyHashes(capacity: listing ? itemCount : 0)
            items.reserveCapacity(itemCount)
            var previous: (raw: RawItem, item: InternetPasswordItem)?
            for _ in 0..<itemCount {
                let raw = try RawItem(&r, limits: limits)
                if listing { keyHashes.append(raw.keyHash(in: bytes)) }
                let item = raw.item(in: bytes, secrets: selection.secrets, sharingWith: previous)
                items.append(item)
                previous = (raw, item)
            }
            if listing {
                if keyHashes.containsRepeat() {
                    return try decode(bytes, payload: payload, limits: limits, selection: .everything)
                }
                return try decodeRest(&r, head: head, items: items, limits: limits, keysChecked: true)
            }
        }
        return try decodeRest(&r, head: head, items: items, limits: limits)
    }

    /// Decodes what follows the items (association records, then passkeys for schema 2), checks
    /// that nothing follows, and builds the contents with `items` (which checks unique keys
    /// unless `keysChecked`: the caller checked them).
    static func decodeRest(
        _ r: inout ByteReader, head: Head, items: [InternetPasswordItem], limits: StoreLimits,
        keysChecked: Bool = false
    ) throws(SWCredError) -> StoreContents {
        let recordCount = Int(try r.u32())
        guard recordCount <= limits.maxAssociationRecords else {
            throw SWCredError(
                .limitExceeded,
                "the file holds \(recordCount) association records; the limit is \(limits.maxAssociationRecords)"
            )
        }
        guard recordCount <= r.remaining / 30 else { throw r.fail("the record count exceeds the data") }
        var records: [AssociationRecord] = []
        records.reserveCapacity(recordCount)
        for _ in 0..<recordCount { records.append(try decodeRecord(&r, limits: limits)) }
        let passkeys: [PasskeyItem] =
            try head.schema >= 2
            ? PasskeyCodec.decode(
                &r, limits: limits, itemCount: head.itemCount, allowEmpty: head.schema >= 3,
                signCounts: head.schema >= 4) : []
        try r.expectEnd()
        var contents = try StoreContents(
            schemaVersion: head.schema, creationDate: head.created, settings: head.settings, items: items,
            associationRecords: records, passkeys: passkeys, rollbackProtection: head.rollbackProtection,
            keysChecked: keysChecked
        )
        contents.limits = limits
        return contents
    }

    /// One item as it lies in the payload: every field read and checked (lengths, limits, UTF-8,
    /// four-character codes, dates, the secret marker), the variable-length ones kept as ranges of
    /// the plaintext. Nothing is allocated until ``item(in:secrets:)`` builds the value.
    ///
    /// A new record kind (a later schema) gets its own raw type and its own section after the
    /// association records; this one stays the schema-1 item.
    struct RawItem {
        var server, account: Range<Int>
        var port: UInt16
        var protocolCode, authenticationType, path, securityDomain, label, comment, creator, accessGroup: Range<Int>
        var synchronizable, isNegative: Bool
        var created, modified: Int64
        var secret: Range<Int>?

        init(_ r: inout ByteReader, limits: StoreLimits) throws(SWCredError) {
            self = try r.withCursor { (c: inout ByteCursor) throws(SWCredError) in try RawItem(&c, limits: limits) }
        }

        /// The same read through a cursor, for loops over every item of a payload.
        @inline(__always)
        init(_ c: inout ByteCursor, limits: StoreLimits) throws(SWCredError) {
            server = try c.utf8Range16("server", min: 1, max: limits.maxServerBytes)
            account = try c.utf8Range16("account", max: limits.maxAccountBytes)
            port = try c.u16()
            protocolCode = try c.fourCharacterCodeRange("protocol")
            authenticationType = try c.fourCharacterCodeRange("authenticationType")
            path = try c.utf8Range16("path", max: limits.maxPathBytes)
            securityDomain = try c.utf8Range16("securityDomain", max: limits.maxSecurityDomainBytes)
            label = try c.utf8Range16("label", max: limits.maxLabelBytes)
            comment = try c.utf8Range16("comment", max: limits.maxCommentBytes)
            creator = try c.fourCharacterCodeRange("creator")
            accessGroup = try c.utf8Range16("accessGroup", max: limits.maxAccessGroupBytes)
            synchronizable = try c.bool()
            isNegative = try c.bool()
            created = try millisecondsField(&c)
            modified = try millisecondsField(&c)
            switch try c.u8() {
            case 0: secret = nil
            case 1:
                guard !isNegative else { throw c.fail("a negative entry carries a secret") }
                secret = try c.range16(max: limits.maxSecretBytes)
            default: throw c.fail("bad secret marker")
            }
        }

        /// The item value; without `secrets`, ``InternetPasswordItem/secret`` is left `nil`.
        ///
        /// Attributes that repeat from item to item (access group, comment, codes, often the
        /// server) are shared with `previous` when their bytes are equal, instead of building
        /// another copy of the same string: the strings are immutable values, so sharing is
        /// invisible except in memory and time.
        func item(
            in bytes: [UInt8], secrets: Bool, sharingWith previous: (raw: RawItem, item: InternetPasswordItem)? = nil
        ) -> InternetPasswordItem {
            let p = previous
            func text(_ range: Range<Int>, _ earlier: Range<Int>?, _ earlierText: String?) -> String {
                if let earlier, let earlierText, Self.same(bytes, range, earlier) { return earlierText }
                return ByteReader.string(bytes, range)
            }
            return InternetPasswordItem(
                server: text(server, p?.raw.server, p?.item.server), account: ByteReader.string(bytes, account),
                port: port,
                protocolCode: text(protocolCode, p?.raw.protocolCode, p?.item.protocolCode),
                authenticationType: text(authenticationType, p?.raw.authenticationType, p?.item.authenticationType),
                path: text(path, p?.raw.path, p?.item.path),
                securityDomain: text(securityDomain, p?.raw.securityDomain, p?.item.securityDomain),
                label: ByteReader.string(bytes, label), comment: text(comment, p?.raw.comment, p?.item.comment),
                creator: text(creator, p?.raw.creator, p?.item.creator),
                accessGroup: text(accessGroup, p?.raw.accessGroup, p?.item.accessGroup),
                synchronizable: synchronizable, isNegative: isNegative,
                creationDate: PayloadCodec.date(milliseconds: created),
                modificationDate: PayloadCodec.date(milliseconds: modified),
                secret: secrets ? secret.map { Array(bytes[$0]) } : nil
            )
        }

        /// Whether two ranges of `bytes` hold the same bytes.
        private static func same(_ bytes: [UInt8], _ a: Range<Int>, _ b: Range<Int>) -> Bool {
            guard a.count == b.count else { return false }
            guard !a.isEmpty else { return true }
            return bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return false }
                return memcmp(base + a.lowerBound, base + b.lowerBound, a.count) == 0
            }
        }

        /// A hash of the nine-attribute uniqueness key (``ItemKey``) over the raw bytes.
        ///
        /// The key's attributes lie in two runs of the encoding, each field with its length in
        /// front (so each run reads one way only): server, account, port, protocol,
        /// authentication type, path and security domain; then the access group. The runs are
        /// hashed whole with ``RunHash``.
        func keyHash(in bytes: [UInt8]) -> Int {
            bytes.withUnsafeBytes { keyHash(in: $0) }
        }

        /// ``keyHash(in:)-([UInt8])`` on the payload's bytes through a pointer.
        @inline(__always)
        func keyHash(in buffer: UnsafeRawBufferPointer) -> Int {
            let lengthPrefix = 2
            let first = (server.lowerBound - lengthPrefix)..<securityDomain.upperBound
            let second = (accessGroup.lowerBound - lengthPrefix)..<accessGroup.upperBound
            var hash = RunHash()
            hash.combine(UnsafeRawBufferPointer(rebasing: buffer[first]))
            hash.combine(UnsafeRawBufferPointer(rebasing: buffer[second]))
            hash.combine(synchronizable ? 1 : 0)
            return hash.finalize()
        }

        /// Whether this item's nine-attribute key is `item`'s (exact bytes).
        func hasKey(of item: InternetPasswordItem, in bytes: [UInt8]) -> Bool {
            func same(_ range: Range<Int>, _ value: String) -> Bool { Filter.equal(Array(value.utf8), bytes, range) }
            return synchronizable == item.synchronizable && port == item.port && same(server, item.server)
                && same(account, item.account) && same(accessGroup, item.accessGroup)
                && same(protocolCode, item.protocolCode) && same(authenticationType, item.authenticationType)
                && same(path, item.path) && same(securityDomain, item.securityDomain)
        }

        /// A cheap first test of an ``ItemQuery`` on the raw bytes (server and account, compared as
        /// exact bytes); the items it accepts are built and checked with ``ItemQuery/matches(_:)``.
        struct Filter {
            let query: ItemQuery
            let server: [UInt8]?
            let account: [UInt8]?

            init(_ query: ItemQuery) {
                self.query = query
                server = query.server.map { Array($0.utf8) }
                account = query.account.map { Array($0.utf8) }
            }

            func accepts(_ raw: RawItem, in bytes: [UInt8]) -> Bool {
                if let server, !Self.equal(server, bytes, raw.server) { return false }
                if let account, !Self.equal(account, bytes, raw.account) { return false }
                return true
            }

            static func equal(_ value: [UInt8], _ bytes: [UInt8], _ range: Range<Int>) -> Bool {
                guard value.count == range.count else { return false }
                guard !range.isEmpty else { return true }
                return value.withUnsafeBytes { lhs in
                    bytes.withUnsafeBytes { rhs in
                        guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return false }
                        return memcmp(left, right + range.lowerBound, range.count) == 0
                    }
                }
            }
        }
    }

    // MARK: Helpers

    static func milliseconds(_ date: Date) -> Int64 {
        min(max(date.millisecondsSince1970, -maxMilliseconds), maxMilliseconds)
    }

    static func date(_ r: inout ByteReader) throws(SWCredError) -> Date {
        date(milliseconds: try millisecondsField(&r))
    }

    fileprivate static func date(milliseconds ms: Int64) -> Date {
        Date(timeIntervalSince1970: Double(ms) / 1000)
    }

    /// Ids are 1-based positions in `allCases` (declaration order is fixed by format 1).
    static func enumValue<T>(_ id: UInt8, _ all: [T], _ r: inout ByteReader, _ name: String)
        throws(SWCredError) -> T
    {
        guard id >= 1, Int(id) <= all.count else { throw r.fail("unknown \(name) id \(id)") }
        return all[Int(id) - 1]
    }

}

/// A date field: i64 milliseconds within ±2^50.
private func millisecondsField(_ r: inout ByteReader) throws(SWCredError) -> Int64 {
    try r.withCursor { (c: inout ByteCursor) throws(SWCredError) in try millisecondsField(&c) }
}

@inline(__always)
private func millisecondsField(_ c: inout ByteCursor) throws(SWCredError) -> Int64 {
    let ms = try c.i64()
    guard ms >= -PayloadCodec.maxMilliseconds, ms <= PayloadCodec.maxMilliseconds else {
        throw c.fail("a date is out of range")
    }
    return ms
}
