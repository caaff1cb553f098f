/// A set of key hashes, for ``KeyHashes`` (which finds two items with the same key among a
/// payload's items without building them).
///
/// Open addressing over the hashes themselves: they come from ``RunHash`` and are already
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

/// The key hashes of a payload's items, gathered while the items are read and then checked for
/// a repeat in one go (a repeat is settled by the full decode, which compares whole keys).
///
/// Up to 16,384 hashes go through one ``KeyHashSet``. More are first split by their top byte
/// into 256 parts, in two passes over memory in order, and each part goes through its own small
/// set. At 100,000 items one set of 262,144 slots (2 MB) missed the cache on almost every insert:
/// 15% of `swcred show`'s time for 1.7% of its instructions. A part's set is a few kilobytes.
struct KeyHashes {
    private var hashes: [Int] = []
    private static let singleSetLimit = 16_384

    init(capacity: Int) { hashes.reserveCapacity(capacity) }

    mutating func append(_ hash: Int) { hashes.append(hash) }

    /// Whether some hash was appended twice.
    func containsRepeat() -> Bool {
        guard hashes.count > Self.singleSetLimit else { return Self.containsRepeat(hashes[...]) }
        // Where each part starts in `parted`, by counting the hashes of each top byte.
        var starts = [Int](repeating: 0, count: 257)
        for hash in hashes { starts[Self.part(of: hash) + 1] += 1 }
        for part in 0..<256 { starts[part + 1] += starts[part] }
        var next = starts
        var parted = [Int](repeating: 0, count: hashes.count)
        for hash in hashes {
            let part = Self.part(of: hash)
            parted[next[part]] = hash
            next[part] += 1
        }
        for part in 0..<256 where Self.containsRepeat(parted[starts[part]..<starts[part + 1]]) { return true }
        return false
    }

    @inline(__always)
    private static func part(of hash: Int) -> Int { Int(UInt64(UInt(bitPattern: hash)) >> 56) }

    private static func containsRepeat(_ hashes: ArraySlice<Int>) -> Bool {
        var set = KeyHashSet(capacity: hashes.count)
        for hash in hashes where !set.insert(hash) { return true }
        return false
    }
}

/// A seeded 64-bit hash of byte runs, for ``KeyHashSet``: eight bytes per step (a multiply and a
/// shift), then a final mix so that the low bits the set uses depend on every byte.
///
/// Not a cryptographic hash, and it need not be one: two items with the same hash only send the
/// read to the full decode, which compares whole keys. The seed comes from `Hasher`, which is
/// seeded at random per process, so nobody who plants items can aim for repeats (which would
/// only cost time). `Hasher` itself (SipHash-1-3) was 566 instructions per item here, a fifth of
/// scanning a payload (callgrind, `swcred add` at 10,000 items).
struct RunHash {
    private static let seed: UInt64 = {
        var hasher = Hasher()
        hasher.combine(0x5357_4352_4544 as UInt64)
        return UInt64(truncatingIfNeeded: hasher.finalize())
    }()
    private static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15

    private var state: UInt64

    init() { state = Self.seed }

    @inline(__always)
    private mutating func mix(_ word: UInt64) {
        state = (state ^ word) &* Self.multiplier
        state ^= state >> 29
    }

    /// Adds a run of bytes and its length.
    mutating func combine(_ run: UnsafeRawBufferPointer) {
        var index = 0
        while index + 8 <= run.count {
            mix(run.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            index += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < run.count {
            tail |= UInt64(run[index]) << shift
            shift += 8
            index += 1
        }
        // The length goes into the last word, so runs of zero bytes of different lengths differ.
        mix(tail ^ (UInt64(truncatingIfNeeded: run.count) << 56))
    }

    /// Adds one word.
    mutating func combine(_ word: UInt64) { mix(word) }

    /// The hash, with every bit mixed into every other (MurmurHash3's 64-bit finaliser).
    func finalize() -> Int {
        var h = state
        h ^= h >> 33
        h &*= 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h &*= 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return Int(truncatingIfNeeded: h)
    }
}
