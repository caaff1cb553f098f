import SWCredCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A non-negative arbitrary-precision integer, for exact counting of password sets (PW-6.1).
///
/// Only what counting and exact sampling need: addition, subtraction of a smaller value,
/// multiplication, comparison, `log2`, decimal text and a uniform draw below a bound.
/// Limbs are 32-bit, little-endian, without trailing zero limbs.
package struct BigUInt: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    @usableFromInline var limbs: [UInt32]

    /// Zero.
    package static let zero = BigUInt(0)
    /// One.
    package static let one = BigUInt(1)

    /// Creates a value from a machine integer.
    package init(_ value: UInt64) {
        if value == 0 {
            limbs = []
        } else if value <= UInt64(UInt32.max) {
            limbs = [UInt32(value)]
        } else {
            limbs = [UInt32(truncatingIfNeeded: value), UInt32(truncatingIfNeeded: value >> 32)]
        }
    }

    /// Creates a value from an integer literal.
    package init(integerLiteral value: UInt64) {
        self.init(value)
    }

    private init(limbs: [UInt32]) {
        self.limbs = limbs
        normalize()
    }

    /// A value from little-endian 32-bit limbs (trailing zero limbs allowed).
    init(uint32Limbs limbs: [UInt32]) {
        self.init(limbs: limbs)
    }

    private mutating func normalize() {
        while let last = limbs.last, last == 0 { limbs.removeLast() }
    }

    /// Whether the value is zero.
    var isZero: Bool { limbs.isEmpty }

    /// The number of significant bits (0 for zero).
    var bitWidth: Int {
        guard let top = limbs.last else { return 0 }
        return (limbs.count - 1) * 32 + (32 - top.leadingZeroBitCount)
    }

    /// The value as a `UInt64`, when it fits.
    var uint64: UInt64? {
        switch limbs.count {
        case 0: return 0
        case 1: return UInt64(limbs[0])
        case 2: return UInt64(limbs[0]) | (UInt64(limbs[1]) << 32)
        default: return nil
        }
    }

    /// log2 of the value (`-infinity` for zero), accurate to double precision.
    package var log2: Double {
        guard !isZero else { return -Double.infinity }
        // Take the top 64 significant bits as a double, then add the shift.
        let width = bitWidth
        let shift = max(0, width - 64)
        let top = (self >> shift).uint64 ?? 0
        return _log2(Double(top)) + Double(shift)
    }

    // MARK: Arithmetic

    /// Sum.
    package static func + (lhs: BigUInt, rhs: BigUInt) -> BigUInt {
        var result = lhs
        result += rhs
        return result
    }

    /// In-place sum.
    package static func += (lhs: inout BigUInt, rhs: BigUInt) {
        if rhs.limbs.count > lhs.limbs.count {
            lhs.limbs.append(contentsOf: repeatElement(0, count: rhs.limbs.count - lhs.limbs.count))
        }
        var carry: UInt64 = 0
        var i = 0
        while i < lhs.limbs.count {
            let r: UInt64 = i < rhs.limbs.count ? UInt64(rhs.limbs[i]) : 0
            if r == 0 && carry == 0 && i >= rhs.limbs.count { break }
            let s = UInt64(lhs.limbs[i]) + r + carry
            lhs.limbs[i] = UInt32(truncatingIfNeeded: s)
            carry = s >> 32
            i += 1
        }
        if carry != 0 { lhs.limbs.append(UInt32(carry)) }
    }

    /// Difference; `rhs` must not exceed `lhs`.
    package static func - (lhs: BigUInt, rhs: BigUInt) -> BigUInt {
        var result = lhs
        result -= rhs
        return result
    }

    /// In-place difference; `rhs` must not exceed `lhs` (an internal invariant of the counting code).
    package static func -= (lhs: inout BigUInt, rhs: BigUInt) {
        precondition(lhs >= rhs, "BigUInt subtraction would be negative")
        var borrow: Int64 = 0
        var i = 0
        while i < lhs.limbs.count {
            let r: Int64 = i < rhs.limbs.count ? Int64(rhs.limbs[i]) : 0
            if r == 0 && borrow == 0 && i >= rhs.limbs.count { break }
            var d = Int64(lhs.limbs[i]) - r - borrow
            if d < 0 {
                d += Int64(1) << 32
                borrow = 1
            } else {
                borrow = 0
            }
            lhs.limbs[i] = UInt32(truncatingIfNeeded: d)
            i += 1
        }
        lhs.normalize()
    }

    /// Product.
    package static func * (lhs: BigUInt, rhs: BigUInt) -> BigUInt {
        if lhs.isZero || rhs.isZero { return .zero }
        var out = [UInt32](repeating: 0, count: lhs.limbs.count + rhs.limbs.count)
        for i in 0..<lhs.limbs.count {
            var carry: UInt64 = 0
            let a = UInt64(lhs.limbs[i])
            for j in 0..<rhs.limbs.count {
                let t = a * UInt64(rhs.limbs[j]) + UInt64(out[i + j]) + carry
                out[i + j] = UInt32(truncatingIfNeeded: t)
                carry = t >> 32
            }
            var k = i + rhs.limbs.count
            while carry != 0 {
                let t = UInt64(out[k]) + carry
                out[k] = UInt32(truncatingIfNeeded: t)
                carry = t >> 32
                k += 1
            }
        }
        return BigUInt(limbs: out)
    }

    /// In-place product.
    package static func *= (lhs: inout BigUInt, rhs: BigUInt) {
        lhs = lhs * rhs
    }

    /// `base` raised to `exponent`.
    package static func power(_ base: BigUInt, _ exponent: Int) -> BigUInt {
        var result = BigUInt.one
        var b = base
        var e = exponent
        while e > 0 {
            if e & 1 == 1 { result *= b }
            e >>= 1
            if e > 0 { b *= b }
        }
        return result
    }

    /// Right shift by `bits`.
    package static func >> (lhs: BigUInt, bits: Int) -> BigUInt {
        guard bits > 0 else { return lhs }
        let limbShift = bits / 32
        let bitShift = bits % 32
        guard limbShift < lhs.limbs.count else { return .zero }
        var out = [UInt32](repeating: 0, count: lhs.limbs.count - limbShift)
        for i in 0..<out.count {
            let lo = UInt64(lhs.limbs[i + limbShift])
            let hi: UInt64 = i + limbShift + 1 < lhs.limbs.count ? UInt64(lhs.limbs[i + limbShift + 1]) : 0
            out[i] = UInt32(truncatingIfNeeded: ((hi << 32) | lo) >> UInt64(bitShift))
        }
        return BigUInt(limbs: out)
    }

    /// Divides by a small divisor, returning quotient and remainder.
    package func quotientAndRemainder(dividingBy divisor: UInt32) -> (quotient: BigUInt, remainder: UInt32) {
        precondition(divisor > 0, "division by zero")
        var out = [UInt32](repeating: 0, count: limbs.count)
        var rem: UInt64 = 0
        for i in stride(from: limbs.count - 1, through: 0, by: -1) {
            let cur = (rem << 32) | UInt64(limbs[i])
            out[i] = UInt32(cur / UInt64(divisor))
            rem = cur % UInt64(divisor)
        }
        return (BigUInt(limbs: out), UInt32(rem))
    }

    // MARK: Comparison

    /// Ordering.
    package static func < (lhs: BigUInt, rhs: BigUInt) -> Bool {
        if lhs.limbs.count != rhs.limbs.count { return lhs.limbs.count < rhs.limbs.count }
        var i = lhs.limbs.count - 1
        while i >= 0 {
            if lhs.limbs[i] != rhs.limbs[i] { return lhs.limbs[i] < rhs.limbs[i] }
            i -= 1
        }
        return false
    }

    // MARK: Text

    /// The decimal representation.
    package var description: String {
        if isZero { return "0" }
        var chunks: [UInt32] = []
        var value = self
        while !value.isZero {
            let (q, r) = value.quotientAndRemainder(dividingBy: 1_000_000_000)
            chunks.append(r)
            value = q
        }
        var text = String(chunks.removeLast())
        for chunk in chunks.reversed() {
            let digits = String(chunk)
            text += String(repeating: "0", count: 9 - digits.count) + digits
        }
        return text
    }

    // MARK: Random

    /// A uniform value in `0..<self`, by rejection on `bitWidth` random bits (PW-1.2).
    /// - Precondition: `self > 0`.
    func randomBelow<R: RandomSource>(using source: inout R) throws(SWCredError) -> BigUInt {
        precondition(!isZero, "randomBelow needs a positive bound")
        let width = bitWidth
        let byteCount = (width + 7) / 8
        let excess = byteCount * 8 - width
        while true {
            var candidateLimbs = [UInt32](repeating: 0, count: (byteCount + 3) / 4)
            for i in 0..<byteCount {
                var byte = UInt32(try source.nextByte())
                if i == byteCount - 1 && excess > 0 { byte &= (UInt32(1) << UInt32(8 - excess)) - 1 }
                candidateLimbs[i / 4] |= byte << UInt32((i % 4) * 8)
            }
            let candidate = BigUInt(limbs: candidateLimbs)
            if candidate < self { return candidate }
        }
    }
}

@inline(__always)
private func _log2(_ x: Double) -> Double {
    log2(x)
}
