/// Arithmetic on fixed-width unsigned integers kept as `width` little-endian 64-bit words at an
/// offset of a flat `[UInt64]`, modulo 2^(64·width).
///
/// The counter (``ShapeCounter``) knows an upper bound for every true value it computes (the
/// product of the alphabet sizes), so it picks a width that holds that bound and works modulo
/// 2^(64·width): a value that is temporarily "negative" (a bulk transition minus the special
/// successors) wraps, and the final values are exact. This keeps counting free of allocations,
/// where a ``BigUInt`` per state allocated for every addition.
enum FixedWidth {
    /// `buffer[to ..< to+width] += source[from ..< from+width]` (mod 2^(64·width)).
    @inline(__always)
    static func add(
        _ buffer: UnsafeMutablePointer<UInt64>, _ to: Int, _ source: UnsafePointer<UInt64>, _ from: Int, width: Int
    ) {
        var carry: UInt64 = 0
        for k in 0..<width {
            let (s1, o1) = buffer[to + k].addingReportingOverflow(source[from + k])
            let (s2, o2) = s1.addingReportingOverflow(carry)
            buffer[to + k] = s2
            carry = (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
        }
    }

    /// `buffer[to ..< to+width] -= source[from ..< from+width]` (mod 2^(64·width)).
    @inline(__always)
    static func subtract(
        _ buffer: UnsafeMutablePointer<UInt64>, _ to: Int, _ source: UnsafePointer<UInt64>, _ from: Int, width: Int
    ) {
        var borrow: UInt64 = 0
        for k in 0..<width {
            let (d1, o1) = buffer[to + k].subtractingReportingOverflow(source[from + k])
            let (d2, o2) = d1.subtractingReportingOverflow(borrow)
            buffer[to + k] = d2
            borrow = (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
        }
    }

    /// `buffer[to ..< to+width] += source[from ..< from+width] · factor` (mod 2^(64·width)).
    @inline(__always)
    static func addProduct(
        _ buffer: UnsafeMutablePointer<UInt64>, _ to: Int, _ source: UnsafePointer<UInt64>, _ from: Int,
        _ factor: UInt64, width: Int
    ) {
        var carry: UInt64 = 0
        for k in 0..<width {
            let (high, low) = source[from + k].multipliedFullWidth(by: factor)
            let (s1, o1) = low.addingReportingOverflow(carry)
            let (s2, o2) = buffer[to + k].addingReportingOverflow(s1)
            buffer[to + k] = s2
            carry = high &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
        }
    }

    /// Whether the value at `at` is zero.
    @inline(__always)
    static func isZero(_ buffer: UnsafePointer<UInt64>, _ at: Int, width: Int) -> Bool {
        for k in 0..<width where buffer[at + k] != 0 { return false }
        return true
    }

    /// `a[i ..< i+width] < b[j ..< j+width]`.
    @inline(__always)
    static func less(_ a: UnsafePointer<UInt64>, _ i: Int, _ b: UnsafePointer<UInt64>, _ j: Int, width: Int) -> Bool {
        var k = width - 1
        while k >= 0 {
            if a[i + k] != b[j + k] { return a[i + k] < b[j + k] }
            k -= 1
        }
        return false
    }
}

extension BigUInt {
    /// A value from little-endian 64-bit words.
    init(words: some Collection<UInt64>) {
        var limbs: [UInt32] = []
        limbs.reserveCapacity(words.count * 2)
        for word in words {
            limbs.append(UInt32(truncatingIfNeeded: word))
            limbs.append(UInt32(truncatingIfNeeded: word >> 32))
        }
        self.init(uint32Limbs: limbs)
    }

    /// The value as `count` little-endian 64-bit words (the low words when it does not fit).
    func words(count: Int) -> [UInt64] {
        var out = [UInt64](repeating: 0, count: count)
        for (i, limb) in limbs.enumerated() where i / 2 < count {
            out[i / 2] |= UInt64(limb) << UInt64((i % 2) * 32)
        }
        return out
    }
}
