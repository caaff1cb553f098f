internal import CSWCredSodium
public import SWCredCore

/// Secret bytes in libsodium guarded memory.
///
/// The buffer comes from `sodium_malloc`: guard pages around it, a canary before it, locked in
/// memory where `RLIMIT_MEMLOCK` allows, and excluded from core dumps. `deinit` calls
/// `sodium_free`, which zeroes the buffer before releasing it. The bytes are reachable only
/// through ``withUnsafeBytes(_:)``; nothing here copies them into `[UInt8]`, `Data` or `String`.
/// `description`, `debugDescription` and `dump` print a redaction marker.
///
/// The contents are fixed once the initialiser returns.
// @unchecked: the buffer is written only inside the initialisers and is immutable afterwards;
// the pointer is owned exclusively by this instance.
public final class SecureBytes: @unchecked Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    private let pointer: UnsafeMutableRawPointer
    /// The number of secret bytes.
    public let count: Int
    /// The allocation this instance is a part of (``init(partOf:range:)``), kept alive by it;
    /// `nil` when this instance owns its allocation.
    private let owner: SecureBytes?

    /// The redaction marker printed in place of secret contents.
    package static let redactionMarker = "<redacted>"

    /// Allocates `capacity` guarded bytes and lets `fill` write them.
    ///
    /// - Parameters:
    ///   - capacity: the buffer size; at least the number of bytes `fill` reports.
    ///   - fill: writes the secret and returns how many bytes of the buffer are used (≤ capacity).
    /// - Throws: ``SWCredError/Code/resourceExhausted`` when `sodium_malloc` fails, or the error
    ///   `fill` throws (the buffer is wiped and freed first).
    package init(
        capacity: Int,
        fill: (UnsafeMutableRawBufferPointer) throws(SWCredError) -> Int
    ) throws(SWCredError) {
        precondition(capacity >= 0, "negative capacity")
        try Sodium.ensureInitialized()
        guard let raw = sodium_malloc(max(capacity, 1)) else {
            throw SWCredError(.resourceExhausted, "sodium_malloc could not allocate \(capacity) guarded bytes")
        }
        let buffer = UnsafeMutableRawBufferPointer(start: raw, count: capacity)
        sodium_memzero(raw, max(capacity, 1))
        let used: Int
        do {
            used = try fill(buffer)
        } catch {
            sodium_free(raw)
            throw error
        }
        precondition(used >= 0 && used <= capacity, "fill reported more bytes than the capacity")
        if used < capacity { sodium_memzero(raw + used, capacity - used) }
        self.pointer = raw
        self.count = used
        self.owner = nil
    }

    /// The bytes at `range` of `owner`, in `owner`'s guarded allocation (no copy). The part keeps
    /// its owner alive; the memory is wiped and freed when the last of them goes. For several
    /// keys that live together: every `sodium_malloc` maps, protects, locks and later unlocks
    /// and unmaps pages of its own (about ten system calls; issue 22), so a store's three
    /// sub-keys share one allocation.
    package init(partOf owner: SecureBytes, range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= owner.count, "range outside the secret")
        self.pointer = owner.pointer + range.lowerBound
        self.count = range.count
        self.owner = owner.owner ?? owner
    }

    /// Allocates `count` guarded bytes and fills them with `randombytes_buf`.
    /// - Throws: ``SWCredError/Code/resourceExhausted``.
    package convenience init(randomCount count: Int) throws(SWCredError) {
        try self.init(capacity: count) { buffer in
            if let base = buffer.baseAddress { randombytes_buf(base, buffer.count) }
            return buffer.count
        }
    }

    /// Copies `bytes` into guarded memory. The caller's array is not wiped: prefer
    /// ``init(capacity:fill:)`` for secrets that were never in a Swift array.
    public convenience init(copying bytes: some Collection<UInt8>) throws(SWCredError) {
        let array = Array(bytes)
        try self.init(capacity: array.count) { buffer in
            buffer.copyBytes(from: array)
            return array.count
        }
    }

    deinit {
        // sodium_free zeroes the whole allocation before releasing it. A part frees nothing.
        if owner == nil { sodium_free(pointer) }
    }

    /// Calls `body` with a read-only view of the secret bytes. Do not let the pointer escape.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// Compares with another secret in constant time (`sodium_memcmp`); lengths must match.
    package func constantTimeEquals(_ other: SecureBytes) -> Bool {
        guard count == other.count else { return false }
        if count == 0 { return true }
        return sodium_memcmp(pointer, other.pointer, count) == 0
    }

    /// A redaction marker; never the contents.
    public var description: String { "SecureBytes(\(Self.redactionMarker))" }
    /// A redaction marker; never the contents.
    public var debugDescription: String { description }
    /// A mirror without children, so `dump` prints no contents.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .class) }
}
