public import SWCredCore

/// Where a generator's randomness comes from.
///
/// Production code uses ``SodiumRandomSource`` (libsodium's `randombytes_buf`, PW-1.1). Tests inject a
/// deterministic source (``SeededRandomSource``, ``ReplayRandomSource``); everything generated from
/// a source whose ``isSecret`` is `false` is reported as not secret (PW-1.1).
public protocol RandomSource {
    /// Whether values drawn from this source may be used as secrets.
    var isSecret: Bool { get }

    /// Returns the next random byte of the stream.
    /// - Throws: `cryptoUnavailable` when the system source fails; `internalError` when a replayed
    ///   stream runs out.
    mutating func nextByte() throws(SWCredError) -> UInt8
}

extension RandomSource {
    /// A uniform integer in `0..<upperBound` (PW-1.2).
    ///
    /// Rejection sampling on 32-bit little-endian words: a word x is accepted only if
    /// x < ⌊2^32 / n⌋ · n, and then x mod n is returned. Never `x % n` on raw words.
    /// - Precondition: `0 < upperBound <= UInt32.max`.
    public mutating func uniform(_ upperBound: Int) throws(SWCredError) -> Int {
        precondition(upperBound > 0 && upperBound <= Int(UInt32.max), "uniform needs a bound in 1...UInt32.max")
        if upperBound == 1 { return 0 }
        let n = UInt64(upperBound)
        let limit = ((UInt64(1) << 32) / n) * n
        while true {
            var x: UInt64 = 0
            for shift in stride(from: 0, to: 32, by: 8) {
                x |= UInt64(try nextByte()) << UInt64(shift)
            }
            if x < limit { return Int(x % n) }
        }
    }
}
