/// The uniqueness index of ``StoreContents``: item offsets by the hash of their nine-attribute
/// key. It stores no copies of the key strings (a `[ItemKey: Int]` would retain seven strings per
/// item), and confirms every hit by comparing the item's key bytes, so hash collisions are
/// harmless. `Hasher` is seeded per process, so collisions cannot be planted in a file.
///
/// A second table lists the offsets of the items of each (server, account) pair (by the hash of
/// their bytes, in ascending order), so that a query naming both looks at those items only: the
/// Shared Web Credentials add and request, and the "Passwords not saved" check, ask by server
/// and account, and a scan of every item per line made a batch of 10,000 adds quadratic (issue
/// 13: 43% of its time was spent comparing servers). A query without both still scans.
struct ItemIndex: Sendable {
    private var first: [Int: Int] = [:]
    /// Further offsets whose key hash collides with a `first` entry (practically always empty).
    private var overflow: [Int: [Int]] = [:]
    /// Offsets by the hash of the item's server and account, ascending (a collision only adds
    /// candidates).
    private var bySite: [Int: [Int]] = [:]

    init(minimumCapacity: Int = 0) {
        first = Dictionary(minimumCapacity: minimumCapacity)
    }

    static func siteHash(server: String, account: String) -> Int {
        var hasher = Hasher()
        ExactBytes.hash(server, into: &hasher)
        ExactBytes.hash(account, into: &hasher)
        return hasher.finalize()
    }

    /// The offsets of the items whose server and account may be these, ascending: every such
    /// item, and perhaps others whose hash collides (callers still match each one).
    func candidateOffsets(server: String, account: String) -> [Int] {
        bySite[Self.siteHash(server: server, account: account)] ?? []
    }

    private mutating func addSiteEntry(_ item: InternetPasswordItem, at offset: Int) {
        let hash = Self.siteHash(server: item.server, account: item.account)
        var offsets = bySite.removeValue(forKey: hash) ?? []  // removed, so that it is changed in place
        if let last = offsets.last, last > offset {
            offsets.insert(offset, at: Self.position(of: offset, in: offsets))
        } else {
            offsets.append(offset)
        }
        bySite[hash] = offsets
    }

    private mutating func removeSiteEntry(_ item: InternetPasswordItem, at offset: Int) {
        let hash = Self.siteHash(server: item.server, account: item.account)
        guard var offsets = bySite.removeValue(forKey: hash) else { return }
        let position = Self.position(of: offset, in: offsets)
        if position < offsets.count, offsets[position] == offset { offsets.remove(at: position) }
        if !offsets.isEmpty { bySite[hash] = offsets }
    }

    /// The first position in the ascending `offsets` whose value is not below `offset`.
    private static func position(of offset: Int, in offsets: [Int]) -> Int {
        var low = 0
        var high = offsets.count
        while low < high {
            let mid = (low + high) / 2
            if offsets[mid] < offset { low = mid + 1 } else { high = mid }
        }
        return low
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
            addSiteEntry(item, at: offset)
            return true
        }
        if ItemKey.sameKey(item, items[existing]) { return false }
        if let others = overflow[hash], others.contains(where: { ItemKey.sameKey(item, items[$0]) }) { return false }
        overflow[hash, default: []].append(offset)
        addSiteEntry(item, at: offset)
        return true
    }

    mutating func insert(_ item: InternetPasswordItem, at offset: Int) {
        let hash = Self.hash(item)
        if first[hash] == nil {
            first[hash] = offset
        } else {
            overflow[hash, default: []].append(offset)
        }
        addSiteEntry(item, at: offset)
    }

    /// Forgets `offset`, which holds `item`.
    mutating func remove(_ item: InternetPasswordItem, at offset: Int) {
        removeSiteEntry(item, at: offset)
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
        bySite.removeAll(keepingCapacity: true)
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
