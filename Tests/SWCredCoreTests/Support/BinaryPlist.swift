/// Builds `bplist00` files from raw objects, for tests that need malformed or hostile graphs
/// no writer produces (cycles, shared subtrees, lone surrogates).
enum BinaryPlist {
    /// A file holding `objects` (each its marker and content, references `refSize` bytes wide),
    /// with an offset table of `offsetSize`-byte entries and a trailer naming `top`.
    static func file(_ objects: [[UInt8]], top: Int = 0, offsetSize: Int = 2, refSize: Int = 1) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let tableOffset = bytes.count
        for offset in offsets { bytes += bigEndian(UInt64(offset), size: offsetSize) }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
        bytes += bigEndian(UInt64(objects.count), size: 8)
        bytes += bigEndian(UInt64(top), size: 8)
        bytes += bigEndian(UInt64(tableOffset), size: 8)
        return bytes
    }

    static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - $0))) }
    }

    /// An ASCII string object.
    static func ascii(_ text: String) -> [UInt8] {
        let utf8 = Array(text.utf8)
        return [0x50 | UInt8(utf8.count)] + utf8  // tests keep it under 15 bytes
    }

    /// A UTF-16BE string object of raw code units.
    static func utf16(_ units: [UInt16]) -> [UInt8] {
        [0x60 | UInt8(units.count)] + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    /// An array object of one-byte references.
    static func array(_ references: [UInt8]) -> [UInt8] { [0xA0 | UInt8(references.count)] + references }

    /// A dictionary object of one-byte key and value references.
    static func dictionary(keys: [UInt8], values: [UInt8]) -> [UInt8] { [0xD0 | UInt8(keys.count)] + keys + values }
}
