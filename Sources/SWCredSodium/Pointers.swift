/// Helpers that hand C a non-null pointer even for an empty buffer (libsodium's prototypes are
/// `nonnull`, and an empty Swift array may have no base address).
enum Pointers {
    private static let emptyByte: [UInt8] = [0]

    static func read<R>(_ buffer: UnsafeRawBufferPointer, _ body: (UnsafePointer<UInt8>, Int) -> R) -> R {
        if let base = buffer.baseAddress, buffer.count > 0 {
            return body(base.assumingMemoryBound(to: UInt8.self), buffer.count)
        }
        return emptyByte.withUnsafeBufferPointer { p in
            // An array of one element always has storage.
            guard let base = p.baseAddress else { preconditionFailure("array storage missing") }
            return body(base, 0)
        }
    }

    static func read<R>(_ array: [UInt8], _ body: (UnsafePointer<UInt8>, Int) -> R) -> R {
        array.withUnsafeBytes { read($0, body) }
    }

    static func write<R>(
        _ buffer: UnsafeMutableRawBufferPointer,
        _ body: (UnsafeMutablePointer<UInt8>, Int) -> R
    ) -> R {
        if let base = buffer.baseAddress, buffer.count > 0 {
            return body(base.assumingMemoryBound(to: UInt8.self), buffer.count)
        }
        var scratch: [UInt8] = [0]
        return scratch.withUnsafeMutableBufferPointer { p in
            guard let base = p.baseAddress else { preconditionFailure("array storage missing") }
            return body(base, 0)
        }
    }
}
