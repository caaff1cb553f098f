public import FoundationEssentials
public import SWCredCore

/// The decrypted contents of a keychain file: items (negative entries included), association
/// records, device settings and metadata.
///
/// A pure value type with no I/O and no crypto. ``KeychainStore/transaction(expectedGeneration:_:)``
/// hands one to a closure under the write lock, so that check-then-write happens in one
/// transaction; an in-memory keychain can use the very same type, and so the same uniqueness and
/// query rules, without encryption.
///
/// Rules (spec/store.md §3):
/// - items are unique by ``ItemKey`` (nine attributes); association records by
///   ``AssociationRecord/Key``; both compared as exact bytes;
/// - ``add(_:at:limits:)`` fails with `duplicateItem` on an existing key (a negative entry with the
///   key included), ``update(matching:with:at:limits:)`` with `duplicateItem` when the result would
///   collide, and with `itemNotFound` when nothing matches; ``delete(matching:)`` removes every
///   match and fails with `itemNotFound` when there is none;
/// - input is validated: `invalidParameter` for malformed or oversized fields, `limitExceeded`
///   for counts.
///
/// Items keep their insertion order. Dates are stored at millisecond precision.
public struct StoreContents: Sendable {
    /// The newest payload schema version this library reads and writes (2 adds passkeys, 3 the
    /// store flags: rollback protection, 4 the passkeys' sign counts).
    package static let currentSchemaVersion: UInt16 = 4
    /// The schema of contents with a store flag set and every passkey's count 0.
    static let schemaVersionWithStoreFlags: UInt16 = 3
    /// The schema of contents with a passkey whose sign count is not 0.
    static let schemaVersionWithSignCounts: UInt16 = 4
    /// The schema of contents without passkeys: such contents are written as schema 1, byte for
    /// byte what earlier versions wrote, so older swcred keeps reading them.
    static let schemaVersionWithoutPasskeys: UInt16 = 1
    /// The schema of contents with passkeys and no store flag set.
    static let schemaVersionWithPasskeys: UInt16 = 2

    /// The payload schema version these contents are written with: the lowest that holds them
    /// (1 without passkeys, 2 with, 3 when a store flag is set, 4 when a passkey's sign count is
    /// not 0), so that a store that does not use a newer feature stays readable by the swcred
    /// that wrote it.
    package var schemaVersion: UInt16 {
        Self.schemaVersion(
            passkeys: !passkeys.isEmpty, rollbackProtection: rollbackProtection,
            signCounts: passkeys.contains { $0.signCount != 0 })
    }

    static func schemaVersion(passkeys: Bool, rollbackProtection: Bool, signCounts: Bool) -> UInt16 {
        if signCounts { return Self.schemaVersionWithSignCounts }
        if rollbackProtection { return Self.schemaVersionWithStoreFlags }
        return passkeys ? Self.schemaVersionWithPasskeys : Self.schemaVersionWithoutPasskeys
    }
    /// When the store was created.
    public internal(set) var creationDate: Date
    /// The emulated device settings. Changing them is a write like any other.
    package var settings: DeviceSettings
    /// Rollback protection (store.md §5): off by default. When on, every open and save checks and
    /// raises a mark kept outside the store (the state file), and an older copy of the store
    /// fails with `rollbackDetected`; when off, nothing outside the store is read or written.
    /// Kept inside the authenticated payload (schema 3 or 4), so it cannot be removed without the key.
    package var rollbackProtection: Bool = false
    /// Every item, negative entries included, in insertion order.
    public private(set) var items: [InternetPasswordItem]
    /// Every association record, in insertion order.
    package private(set) var associationRecords: [AssociationRecord]
    /// Every passkey, in insertion order (payload schema 2; see `StoreContents+Passkeys`).
    package internal(set) var passkeys: [PasskeyItem] = []

    /// The limits that ``add(_:at:limits:)``, ``update(matching:with:at:limits:)`` and
    /// ``upsertAssociationRecord(_:limits:)`` apply when not given explicitly. A store sets it to
    /// its ``StoreOptions/limits`` before running a transaction. Not stored, not compared.
    package var limits: StoreLimits = .default

    /// The lookup index of ``items``; `nil` until a change needs it when the contents were
    /// decoded for reading only (``init(schemaVersion:creationDate:settings:items:associationRecords:passkeys:keysChecked:)``):
    /// building it for 10,000 items was a quarter of `swcred list`. Lookups without it scan.
    private var itemIndex: ItemIndex?
    private var associationIndex: [AssociationRecord.Key: Int]

    /// Creates empty contents.
    /// - Parameters:
    ///   - creationDate: the store's creation date (kept at millisecond precision).
    ///   - settings: the device settings; defaults to a stock device.
    package init(creationDate: Date, settings: DeviceSettings = DeviceSettings()) {
        self.creationDate = creationDate.roundedToMilliseconds
        self.settings = settings
        self.items = []
        self.associationRecords = []
        self.itemIndex = ItemIndex()
        self.associationIndex = [:]
    }

    /// Rebuilds contents from decoded parts, refusing duplicate keys.
    ///
    /// - Parameter keysChecked: the caller has already made sure that no two items share a key
    ///   (the payload decoder's key hashes, for reads that only list): the item index is then
    ///   built only when a change needs it, not here.
    init(
        schemaVersion: UInt16, creationDate: Date, settings: DeviceSettings,
        items: [InternetPasswordItem], associationRecords: [AssociationRecord], passkeys: [PasskeyItem] = [],
        rollbackProtection: Bool = false, keysChecked: Bool = false
    ) throws(SWCredError) {
        let expectedSchema = Self.schemaVersion(
            passkeys: !passkeys.isEmpty, rollbackProtection: rollbackProtection,
            signCounts: passkeys.contains { $0.signCount != 0 })
        guard schemaVersion == expectedSchema else {
            throw SWCredError(.corruptPayload, "payload schema \(schemaVersion) does not match its contents")
        }
        self.passkeys = passkeys
        self.rollbackProtection = rollbackProtection
        self.creationDate = creationDate
        self.settings = settings
        self.items = items
        self.associationRecords = associationRecords
        self.associationIndex = Dictionary(minimumCapacity: associationRecords.count)
        if keysChecked {
            self.itemIndex = nil
        } else {
            var itemIndex = ItemIndex(minimumCapacity: items.count)
            for (offset, item) in items.enumerated() {
                guard itemIndex.insertIfAbsent(item, at: offset, in: items) else {
                    throw SWCredError(.corruptPayload, "the payload holds two items with the same key")
                }
            }
            self.itemIndex = itemIndex
        }
        for (offset, record) in associationRecords.enumerated() {
            guard associationIndex.updateValue(offset, forKey: record.key) == nil else {
                throw SWCredError(.corruptPayload, "the payload holds two association records with the same key")
            }
        }
    }

    // MARK: Items

    /// The item with exactly this uniqueness key, if any.
    package func item(forKey key: ItemKey) -> InternetPasswordItem? {
        guard let itemIndex else { return items.first { key.matches($0) } }
        return itemIndex.offset(of: key, in: items).map { items[$0] }
    }

    /// Every item that matches `query`, negative entries included when the query allows them, in
    /// store order.
    public func items(matching query: ItemQuery) -> [InternetPasswordItem] {
        matchingOffsets(query).map { items[$0] }
    }

    /// Items that carry passwords: matches of `query` that are not negative entries.
    public func passwordItems(matching query: ItemQuery) -> [InternetPasswordItem] {
        matchingOffsets(query).compactMap { items[$0].isNegative ? nil : items[$0] }
    }

    /// The offsets of the items that match `query`, ascending. A query that names a server and
    /// an account looks only at their items (through the index); any other looks at every item.
    func matchingOffsets(_ query: ItemQuery) -> [Int] {
        if let server = query.server, let account = query.account, let itemIndex {
            return itemIndex.candidateOffsets(server: server, account: account).filter { query.matches(items[$0]) }
        }
        return items.indices.filter { query.matches(items[$0]) }
    }

    /// Adds an item, setting its creation and modification dates to `date`.
    ///
    /// - Parameters:
    ///   - item: the item; its dates are replaced.
    ///   - date: the injected clock's time (millisecond precision is kept).
    ///   - limits: field sizes and the item count; `nil` uses ``limits``.
    /// - Throws: `invalidParameter` (malformed or oversized attribute), `duplicateItem` (the key
    ///   exists, a "Passwords not saved" entry included), `limitExceeded` (too many items).
    public mutating func add(
        _ item: InternetPasswordItem,
        at date: Date,
        limits: StoreLimits? = nil
    ) throws(SWCredError) {
        let limits = limits ?? self.limits
        var item = item
        let stamp = date.roundedToMilliseconds
        item.creationDate = stamp
        item.modificationDate = stamp
        if item.isNegative { item.secret = nil }
        try ItemValidation.validate(item, limits: limits)
        ensureItemIndex()
        guard itemIndex?.offset(ofKeyOf: item, in: items) == nil else {
            throw SWCredError(.duplicateItem, "an item with this key already exists for server \(item.server)")
        }
        guard items.count < limits.maxItems else {
            throw SWCredError(.limitExceeded, "the store holds \(items.count) items; the limit is \(limits.maxItems)")
        }
        itemIndex?.insert(item, at: items.count)
        items.append(item)
    }

    /// Changes every item that matches `query`.
    ///
    /// - Returns: the number of items changed (at least 1).
    /// - Throws: `itemNotFound` (no match), `duplicateItem` (a result would share its key with
    ///   another item), `invalidParameter` (a malformed result). Nothing changes on error.
    @discardableResult
    package mutating func update(
        matching query: ItemQuery,
        with update: ItemUpdate,
        at date: Date,
        limits: StoreLimits? = nil
    ) throws(SWCredError) -> Int {
        let limits = limits ?? self.limits
        ensureItemIndex()
        let offsets = matchingOffsets(query)
        guard !offsets.isEmpty else { throw SWCredError(.itemNotFound, "no item matches the update") }
        let stamp = date.roundedToMilliseconds
        var changed: [(Int, InternetPasswordItem)] = []
        changed.reserveCapacity(offsets.count)
        let moving = Set(offsets)
        var newKeys = Set<ItemKey>()
        for offset in offsets {
            var updated = update.applied(to: items[offset])
            updated.modificationDate = stamp
            try ItemValidation.validate(updated, limits: limits)
            let key = updated.key
            if let other = itemIndex?.offset(of: key, in: items), !moving.contains(other) {
                throw SWCredError(.duplicateItem, "the update would duplicate another item's key")
            }
            guard newKeys.insert(key).inserted else {
                throw SWCredError(.duplicateItem, "the update would give two items the same key")
            }
            changed.append((offset, updated))
        }
        for (offset, _) in changed {
            itemIndex?.remove(items[offset], at: offset)
        }
        for (offset, updated) in changed {
            items[offset] = updated
            itemIndex?.insert(updated, at: offset)
        }
        return changed.count
    }

    /// Removes every item that matches `query`, as `SecItemDelete` does.
    /// - Returns: the removed items.
    /// - Throws: `itemNotFound` when nothing matches.
    @discardableResult
    public mutating func delete(matching query: ItemQuery) throws(SWCredError) -> [InternetPasswordItem] {
        var removed: [InternetPasswordItem] = []
        var kept: [InternetPasswordItem] = []
        kept.reserveCapacity(items.count)
        for item in items {
            if query.matches(item) { removed.append(item) } else { kept.append(item) }
        }
        guard !removed.isEmpty else { throw SWCredError(.itemNotFound, "no item matches the delete") }
        items = kept
        rebuildItemIndex()
        return removed
    }

    private mutating func rebuildItemIndex() {
        var itemIndex = ItemIndex(minimumCapacity: items.count)
        for (offset, item) in items.enumerated() { itemIndex.insert(item, at: offset) }
        self.itemIndex = itemIndex
    }

    /// Builds the item index if these contents were decoded without it (changes need it).
    private mutating func ensureItemIndex() {
        if itemIndex == nil { rebuildItemIndex() }
    }

    // MARK: Association records

    /// The record with exactly this key, if any.
    package func associationRecord(forKey key: AssociationRecord.Key) -> AssociationRecord? {
        associationIndex[key].map { associationRecords[$0] }
    }

    /// Records filtered by service and/or app identifier (exact comparison); `nil` is a wildcard.
    package func associationRecords(service: AssociationRecord.Service? = nil, appID: String? = nil)
        -> [AssociationRecord]
    {
        associationRecords.filter { record in
            (service == nil || record.service == service)
                && (appID.map { record.appID.utf8.elementsEqual($0.utf8) } ?? true)
        }
    }

    /// Inserts a record, or replaces the record with the same key (keeping its position).
    /// - Returns: the record it replaced, if any.
    /// - Throws: `invalidParameter` (empty or oversized fields, port 0), `limitExceeded` (too many records).
    @discardableResult
    package mutating func upsertAssociationRecord(
        _ record: AssociationRecord,
        limits: StoreLimits? = nil
    ) throws(SWCredError) -> AssociationRecord? {
        let limits = limits ?? self.limits
        var record = record
        record.lastChecked = record.lastChecked.roundedToMilliseconds
        record.nextCheck = record.nextCheck.roundedToMilliseconds
        if var file = record.lastFile {
            file.retrievedAt = file.retrievedAt.roundedToMilliseconds
            record.lastFile = file
        }
        try ItemValidation.validate(record, limits: limits)
        let key = record.key
        if let offset = associationIndex[key] {
            let old = associationRecords[offset]
            associationRecords[offset] = record
            return old
        }
        guard associationRecords.count < limits.maxAssociationRecords else {
            throw SWCredError(
                .limitExceeded,
                "the store holds \(associationRecords.count) association records; the limit is \(limits.maxAssociationRecords)"
            )
        }
        associationIndex[key] = associationRecords.count
        associationRecords.append(record)
        return nil
    }

    /// Removes the record with this key.
    /// - Returns: the removed record.
    /// - Throws: `itemNotFound` when there is none.
    @discardableResult
    package mutating func removeAssociationRecord(forKey key: AssociationRecord.Key) throws(SWCredError)
        -> AssociationRecord
    {
        guard let offset = associationIndex[key] else {
            throw SWCredError(.itemNotFound, "no association record for \(key.service.rawValue) \(key.host)")
        }
        let removed = associationRecords.remove(at: offset)
        associationIndex.removeAll(keepingCapacity: true)
        for (position, record) in associationRecords.enumerated() { associationIndex[record.key] = position }
        return removed
    }
}

extension StoreContents: Hashable {
    public static func == (lhs: StoreContents, rhs: StoreContents) -> Bool {
        lhs.schemaVersion == rhs.schemaVersion && lhs.creationDate == rhs.creationDate
            && lhs.settings == rhs.settings && lhs.items == rhs.items
            && lhs.associationRecords == rhs.associationRecords && lhs.passkeys == rhs.passkeys
            && lhs.rollbackProtection == rhs.rollbackProtection
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(schemaVersion)
        hasher.combine(creationDate)
        hasher.combine(settings)
        hasher.combine(items)
        hasher.combine(associationRecords)
        hasher.combine(passkeys)
        hasher.combine(rollbackProtection)
    }
}

extension StoreContents: CustomStringConvertible {
    /// Counts only; never item contents.
    public var description: String {
        "StoreContents(schema: \(schemaVersion), items: \(items.count), associationRecords: \(associationRecords.count), passkeys: \(passkeys.count))"
    }
}

extension Date {
    /// This instant rounded to the nearest whole millisecond and clamped to ±2^50 ms (about
    /// ±35,000 years, which covers `distantPast` and `distantFuture`): the store's precision.
    package var roundedToMilliseconds: Date {
        Date(timeIntervalSince1970: Double(PayloadCodec.milliseconds(self)) / 1000)
    }

    /// Milliseconds since 1970, rounded to nearest, clamped to the 64-bit range.
    var millisecondsSince1970: Int64 {
        let ms = (timeIntervalSince1970 * 1000).rounded()
        if ms.isNaN { return 0 }
        if ms >= 9.2e18 { return Int64.max }
        if ms <= -9.2e18 { return Int64.min }
        return Int64(ms)
    }
}
