package import SWCredCore

/// A deterministic byte stream from a 64-bit seed (SplitMix64), **for tests only**.
///
/// Anything generated from it is marked as not secret (``isSecret`` is `false`, PW-1.1): the whole
/// output is determined by the seed.
/// - Warning: never use this source for real passwords.
package struct SeededRandomSource: RandomSource, Sendable {
    private var state: UInt64
    private var word: UInt64 = 0
    private var remaining = 0

    /// Creates a stream from `seed`; equal seeds give equal streams.
    package init(seed: UInt64) {
        state = seed
    }

    /// Always `false`.
    package var isSecret: Bool { false }

    /// The next byte of the stream; never throws.
    package mutating func nextByte() throws(SWCredError) -> UInt8 {
        if remaining == 0 {
            // SplitMix64 (Steele, Lea, Flood 2014): a fixed, well-mixed sequence.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            word = z ^ (z >> 31)
            remaining = 8
        }
        let byte = UInt8(truncatingIfNeeded: word)
        word >>= 8
        remaining -= 1
        return byte
    }
}

/// Replays a fixed byte stream, **for tests only** (for example to compare with Apple's code byte for
/// byte, PW-2.2). Marked not secret.
package struct ReplayRandomSource: RandomSource, Sendable {
    private let bytes: [UInt8]
    private var index = 0

    /// Creates a source that returns `bytes` in order.
    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Always `false`.
    package var isSecret: Bool { false }

    /// How many bytes have been consumed so far.
    package var consumed: Int { index }

    /// The next byte.
    /// - Throws: `internalError` when the stream is exhausted.
    package mutating func nextByte() throws(SWCredError) -> UInt8 {
        guard index < bytes.count else {
            throw SWCredError(.internalError, "the replayed random stream ran out after \(bytes.count) bytes")
        }
        defer { index += 1 }
        return bytes[index]
    }
}
