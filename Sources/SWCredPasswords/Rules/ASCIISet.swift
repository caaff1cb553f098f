/// A set of ASCII characters (code points 0–127) as a 128-bit mask.
///
/// Generation alphabets, required sets and expanded character classes are all ASCII (PW-4.4,
/// PW-5.1), so this is the one set type the generators use.
public struct ASCIISet: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline var low: UInt64
    @usableFromInline var high: UInt64

    /// The empty set.
    public static let empty = ASCIISet(low: 0, high: 0)

    @usableFromInline init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// The set of the ASCII characters of `characters`; other characters are ignored.
    public init(_ characters: String) {
        self = .empty
        for unit in characters.utf8 where unit < 128 { insert(unit) }
    }

    /// The set of the code points in `range` (clamped to ASCII).
    public init(_ range: ClosedRange<UInt8>) {
        self = .empty
        for unit in range where unit < 128 { insert(unit) }
    }

    /// The set of `bytes` below 128.
    public init<S: Sequence>(bytes: S) where S.Element == UInt8 {
        self = .empty
        for unit in bytes where unit < 128 { insert(unit) }
    }

    /// Whether `unit` is in the set.
    @inlinable public func contains(_ unit: UInt8) -> Bool {
        if unit < 64 { return low & (UInt64(1) << UInt64(unit)) != 0 }
        if unit < 128 { return high & (UInt64(1) << UInt64(unit - 64)) != 0 }
        return false
    }

    /// Adds `unit` (ignored when not ASCII).
    @inlinable public mutating func insert(_ unit: UInt8) {
        if unit < 64 {
            low |= UInt64(1) << UInt64(unit)
        } else if unit < 128 {
            high |= UInt64(1) << UInt64(unit - 64)
        }
    }

    /// Removes `unit`.
    @inlinable public mutating func remove(_ unit: UInt8) {
        if unit < 64 {
            low &= ~(UInt64(1) << UInt64(unit))
        } else if unit < 128 {
            high &= ~(UInt64(1) << UInt64(unit - 64))
        }
    }

    /// Union.
    @inlinable public func union(_ other: ASCIISet) -> ASCIISet {
        ASCIISet(low: low | other.low, high: high | other.high)
    }

    /// Intersection.
    @inlinable public func intersection(_ other: ASCIISet) -> ASCIISet {
        ASCIISet(low: low & other.low, high: high & other.high)
    }

    /// Difference.
    @inlinable public func subtracting(_ other: ASCIISet) -> ASCIISet {
        ASCIISet(low: low & ~other.low, high: high & ~other.high)
    }

    /// Whether every member of `self` is in `other`.
    @inlinable public func isSubset(of other: ASCIISet) -> Bool {
        subtracting(other).isEmpty
    }

    /// Whether the sets share a member.
    @inlinable public func intersects(_ other: ASCIISet) -> Bool {
        !intersection(other).isEmpty
    }

    /// Whether the set is empty.
    @inlinable public var isEmpty: Bool { low == 0 && high == 0 }

    /// The number of members.
    @inlinable public var count: Int { low.nonzeroBitCount + high.nonzeroBitCount }

    /// The members in ascending order.
    public var members: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        for unit in UInt8(0)..<128 where contains(unit) { out.append(unit) }
        return out
    }

    /// The members as a string, in ascending order.
    public var description: String {
        String(decoding: members, as: UTF8.self)
    }

    // MARK: Named classes (PW-4.4)

    /// `A`–`Z`.
    public static let upper = ASCIISet(UInt8(ascii: "A")...UInt8(ascii: "Z"))
    /// `a`–`z`.
    public static let lower = ASCIISet(UInt8(ascii: "a")...UInt8(ascii: "z"))
    /// `0`–`9`.
    public static let digit = ASCIISet(UInt8(ascii: "0")...UInt8(ascii: "9"))
    /// The 33 printable non-alphanumerics, space included.
    public static let special = ASCIISet(0x20...0x2F).union(ASCIISet(0x3A...0x40)).union(ASCIISet(0x5B...0x60))
        .union(ASCIISet(0x7B...0x7E))
    /// 0x20–0x7E, the 95 printable ASCII characters.
    public static let asciiPrintable = ASCIISet(0x20...0x7E)
}
