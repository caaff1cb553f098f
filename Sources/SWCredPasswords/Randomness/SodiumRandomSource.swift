public import SWCredCore
import SWCredSodium

/// The production random source: libsodium's `randombytes_buf` (PW-1.1).
///
/// Bytes are fetched 256 at a time; the buffer is zeroed when it is refilled and when the source
/// is released, so unused random bytes do not linger.
public final class SodiumRandomSource: RandomSource {
    private var buffer: [UInt8] = []
    private var index = 0

    /// Creates a source. libsodium is initialised on first use.
    public init() {}

    /// Always `true`.
    public var isSecret: Bool { true }

    /// The next byte from libsodium.
    /// - Throws: `cryptoUnavailable` when libsodium cannot be initialised.
    public func nextByte() throws(SWCredError) -> UInt8 {
        if index >= buffer.count {
            wipe()
            buffer = try Sodium.randomBytes(256)
            index = 0
        }
        let byte = buffer[index]
        buffer[index] = 0
        index += 1
        return byte
    }

    private func wipe() {
        for i in buffer.indices { buffer[i] = 0 }
    }

    deinit { wipe() }
}
