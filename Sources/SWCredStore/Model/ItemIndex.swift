/// The uniqueness index of ``StoreContents``: item offsets by the hash of their nine-attribute
/// key. It stores no copies of the key strings (a `[ItemKey: Int]` would retain seven strings per
/// item), and confirms every hit by comparing the item's key bytes, so hash collisions are
/// harmless. `Hasher` is seeded per process, so collisions cannot be planted in a file.
struct ItemIndex: Sendable {
    private var first: [Int: Int] = [:]
    /// Further offsets whose key hash collides with a `first` entry (practically always empty).
    private var overflow: [Int: [Int]] = [:]

    init(minimumCapacity: Int = 0) {
        first = Dictionary(minimumCapacity: minimumCapacity)
    }

    static func hash(_ item: InternetPasswordItem) -> Int {
        var hasher = Hasher()
        ItemKey.combine(item, into: &hasher)
        return hasher.finalize()
    }

    static func hash(_ key: ItemKey) -> Int { key.hashValue }

    /// The offset of the item whose key is `key`.
    func offset(of key: ItemKey, in items: [InternetPasswordItem]) -> Int? {
        lookup(hash: Self.hash(key), in: items) { key.matches($0) }
    }

    /// The offset of an item with the same key as `item`.
    func offset(ofKeyOf item: InternetPasswordItem, in items: [InternetPasswordItem]) -> Int? {
        lookup(hash: Self.hash(item), in: items) { ItemKey.sameKey(item, $0) }
    }

    private func lookup(hash: Int, in items: [InternetPasswordItem], _ same: (InternetPasswordItem) -> Bool) -> Int? {
        if let offset = first[hash], same(items[offset]) { return offset }
        return overflow[hash]?.first { same(items[$0]) }
    }

    /// Records `offset` for `item`'s key. The caller has checked that the key is new.
    /// Inserts `item` at `offset` unless an item with its key is already indexed (hashing once).
    /// - Returns: whether it was inserted.
    mutating func insertIfAbsent(_ item: InternetPasswordItem, at offset: Int, in items: [InternetPasswordItem]) -> Bool {
        let hash = Self.hash(item)
        guard let existing = first[hash] else {
            first[hash] = offset
            return true
        }
        if ItemKey.sameKey(item, items[existing]) { return false }
        if let others = overflow[hash], others.contains(where: { ItemKey.sameKey(item, items[$0]) }) { return false }
        overflow[hash, default: []].append(offset)
        return true
    }

    mutating func insert(_ item: InternetPasswordItem, at offset: Int) {
        let hash = Self.hash(item)
        if first[hash] == nil {
            first[hash] = offset
        } else {
            overflow[hash, default: []].append(offset)
        }
    }

    /// Forgets `offset`, which holds `item`.
    mutating func remove(_ item: InternetPasswordItem, at offset: Int) {
        let hash = Self.hash(item)
        if first[hash] == offset {
            if var others = overflow[hash], !others.isEmpty {
                first[hash] = others.removeFirst()
                overflow[hash] = others.isEmpty ? nil : others
            } else {
                first[hash] = nil
            }
        } else if var others = overflow[hash], let position = others.firstIndex(of: offset) {
            others.remove(at: position)
            overflow[hash] = others.isEmpty ? nil : others
        }
    }

    mutating func removeAll() {
        first.removeAll(keepingCapacity: true)
        overflow.removeAll()
    }
}

extension ItemKey {
    /// Feeds the same bytes as `hash(into:)` for the key of `item`, without building the key.
    static func combine(_ item: InternetPasswordItem, into hasher: inout Hasher) {
        hasher.combine(item.synchronizable)
        hasher.combine(item.port)
        ExactBytes.hash(item.accessGroup, into: &hasher)
        ExactBytes.hash(item.server, into: &hasher)
        ExactBytes.hash(item.account, into: &hasher)
        ExactBytes.hash(item.protocolCode, into: &hasher)
        ExactBytes.hash(item.authenticationType, into: &hasher)
        ExactBytes.hash(item.path, into: &hasher)
        ExactBytes.hash(item.securityDomain, into: &hasher)
    }

    /// Whether `item`'s key is this key (exact bytes).
    func matches(_ item: InternetPasswordItem) -> Bool {
        synchronizable == item.synchronizable && port == item.port
            && ExactBytes.equal(server, item.server) && ExactBytes.equal(account, item.account)
            && ExactBytes.equal(accessGroup, item.accessGroup) && ExactBytes.equal(protocolCode, item.protocolCode)
            && ExactBytes.equal(authenticationType, item.authenticationType) && ExactBytes.equal(path, item.path)
            && ExactBytes.equal(securityDomain, item.securityDomain)
    }

    /// Whether two items share a key (exact bytes).
    static func sameKey(_ lhs: InternetPasswordItem, _ rhs: InternetPasswordItem) -> Bool {
        lhs.synchronizable == rhs.synchronizable && lhs.port == rhs.port
            && ExactBytes.equal(lhs.server, rhs.server) && ExactBytes.equal(lhs.account, rhs.account)
            && ExactBytes.equal(lhs.accessGroup, rhs.accessGroup) && ExactBytes.equal(lhs.protocolCode, rhs.protocolCode)
            && ExactBytes.equal(lhs.authenticationType, rhs.authenticationType) && ExactBytes.equal(lhs.path, rhs.path)
            && ExactBytes.equal(lhs.securityDomain, rhs.securityDomain)
    }
}
