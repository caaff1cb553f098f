import SWCredCore

/// Appends fixed-width little-endian integers and length-prefixed byte strings.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    mutating func u16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func i64(_ value: Int64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func raw(_ value: some Sequence<UInt8>) { bytes.append(contentsOf: value) }

    /// A byte string with a 16-bit length (every field of format 1 is below 64 KiB).
    mutating func bytes16(_ value: some Collection<UInt8>) {
        precondition(value.count <= Int(UInt16.max), "field longer than 65535 bytes")
        u16(UInt16(value.count))
        bytes.append(contentsOf: value)
    }

    /// A string's UTF-8 bytes with a 16-bit length.
    mutating func string16(_ value: String) { bytes16(value.utf8) }

    /// A string's UTF-8 bytes with an 8-bit length (four-character codes).
    mutating func string8(_ value: String) {
        let utf8 = value.utf8
        precondition(utf8.count <= 255, "short field longer than 255 bytes")
        u8(UInt8(utf8.count))
        bytes.append(contentsOf: utf8)
    }
}

/// Reads what ``ByteWriter`` writes. Every read is bounds-checked and throws the reader's error
/// code; nothing traps on input.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset: Int
    private let end: Int
    let errorCode: SWCredError.Code

    init(_ bytes: [UInt8], errorCode: SWCredError.Code) {
        self.bytes = bytes
        self.offset = 0
        self.end = bytes.count
        self.errorCode = errorCode
    }

    var remaining: Int { end - offset }

    /// The whole data (for building values from the ranges the reader returned).
    var data: [UInt8] { bytes }

    func fail(_ message: String) -> SWCredError { SWCredError(errorCode, message) }

    /// Claims the next `count` bytes and returns where they start.
    @inline(__always)
    private mutating func advance(_ count: Int) throws(SWCredError) -> Int {
        guard count >= 0, count <= end - offset else { throw fail("the data ends early (needs \(count) more bytes)") }
        let start = offset
        offset += count
        return start
    }

    mutating func take(_ count: Int) throws(SWCredError) -> ArraySlice<UInt8> {
        let start = try advance(count)
        return bytes[start..<(start + count)]
    }

    @inline(__always)
    mutating func u8() throws(SWCredError) -> UInt8 {
        let index = try advance(1)
        return bytes[index]
    }

    @inline(__always)
    mutating func bool() throws(SWCredError) -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        default: throw fail("a Boolean byte is neither 0 nor 1")
        }
    }

    @inline(__always)
    private mutating func integer<T: FixedWidthInteger>(_: T.Type) throws(SWCredError) -> T {
        let start = try advance(MemoryLayout<T>.size)
        return bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: start, as: T.self)) }
    }

    @inline(__always)
    mutating func u16() throws(SWCredError) -> UInt16 { try integer(UInt16.self) }
    mutating func u32() throws(SWCredError) -> UInt32 { try integer(UInt32.self) }
    mutating func u64() throws(SWCredError) -> UInt64 { try integer(UInt64.self) }
    @inline(__always)
    mutating func i64() throws(SWCredError) -> Int64 { try integer(Int64.self) }

    mutating func bytes16(max: Int) throws(SWCredError) -> [UInt8] {
        let count = Int(try u16())
        guard count <= max else { throw fail("a field is \(count) bytes; the limit is \(max)") }
        return Array(try take(count))
    }

    /// A byte field with a 16-bit length, as a range of the data (nothing is copied).
    @inline(__always)
    mutating func range16(max: Int) throws(SWCredError) -> Range<Int> {
        let count = Int(try u16())
        guard count <= max else { throw fail("a field is \(count) bytes; the limit is \(max)") }
        let start = try advance(count)
        return start..<(start + count)
    }

    /// A UTF-8 field with a 16-bit length, validated, as a range of the data (nothing is copied).
    @inline(__always)
    mutating func utf8Range16(_ name: String, min: Int = 0, max: Int) throws(SWCredError) -> Range<Int> {
        let count = Int(try u16())
        guard count >= min else { throw fail("\(name) is empty") }
        guard count <= max else { throw fail("\(name) is \(count) bytes; the limit is \(max)") }
        let start = try advance(count)
        guard Self.isValidUTF8(bytes, start..<(start + count)) else { throw fail("\(name) is not valid UTF-8") }
        return start..<(start + count)
    }

    mutating func string16(_ name: String, min: Int = 0, max: Int) throws(SWCredError) -> String {
        let range = try utf8Range16(name, min: min, max: max)
        return Self.string(bytes, range)
    }

    /// A four-character code (length 0 or 4, printable ASCII), as a range of the data.
    @inline(__always)
    mutating func fourCharacterCodeRange(_ name: String) throws(SWCredError) -> Range<Int> {
        let count = Int(try u8())
        guard count == 0 || count == 4 else { throw fail("\(name) is not a four-character code") }
        let start = try advance(count)
        for index in start..<(start + count) where !(0x20...0x7E).contains(bytes[index]) {
            throw fail("\(name) is not printable ASCII")
        }
        return start..<(start + count)
    }

    mutating func fourCharacterCode(_ name: String) throws(SWCredError) -> String {
        Self.string(bytes, try fourCharacterCodeRange(name))
    }

    /// Whether `bytes[range]` is valid UTF-8 (an all-ASCII run is checked without building a string).
    static func isValidUTF8(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            let field = UnsafeBufferPointer(rebasing: buffer[range])
            return isASCII(field) || String(validating: field, as: UTF8.self) != nil
        }
    }

    /// Whether every byte is below 0x80, tested eight bytes at a time.
    private static func isASCII(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = field.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        var high: UInt64 = 0
        while index + 8 <= field.count {
            high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < field.count {
            high |= UInt64(field[index])
            index += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// The string of `bytes[range]`, which ``isValidUTF8(_:_:)`` has accepted.
    static func string(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { buffer in String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self) }
    }

    func expectEnd() throws(SWCredError) {
        guard remaining == 0 else { throw fail("\(remaining) bytes of trailing data") }
    }
}
