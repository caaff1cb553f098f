/// The key hashes seen while reading a payload's items without building them, to find two items
/// with the same key (a repeated hash is settled by the full decode, which compares whole keys).
///
/// Open addressing over the hashes themselves: they come from a seeded `Hasher` and are already
/// uniform, so hashing each one again, as `Set<Int>` does, only costs time (at 100,000 items the
/// set was a tenth of `swcred add`).
struct KeyHashSet {
    private var slots: [Int]
    private var mask: Int
    private var count = 0

    /// A set sized for `capacity` hashes (the payload's item count), at most half full; more
    /// are taken by doubling.
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Int](repeating: 0, count: size)
        mask = size - 1
    }

    /// Inserts `hash`. Returns `false` when it was there already. Zero marks an empty slot, so a
    /// hash of 0 is kept as 1: at worst one more repeat reported, which the full decode settles.
    mutating func insert(_ hash: Int) -> Bool {
        if (count + 1) * 2 > slots.count { grow() }
        let value = hash == 0 ? 1 : hash
        let inserted = Self.place(value, in: &slots, mask: mask)
        if inserted { count += 1 }
        return inserted
    }

    private mutating func grow() {
        let old = slots
        slots = [Int](repeating: 0, count: old.count * 2)
        mask = slots.count - 1
        for value in old where value != 0 { _ = Self.place(value, in: &slots, mask: mask) }
    }

    private static func place(_ value: Int, in slots: inout [Int], mask: Int) -> Bool {
        slots.withUnsafeMutableBufferPointer { slots in
            var index = value & mask
            while true {
                let slot = slots[index]
                if slot == 0 {
                    slots[index] = value
                    return true
                }
                if slot == value { return false }
                index = (index + 1) & mask
            }
        }
    }
}
