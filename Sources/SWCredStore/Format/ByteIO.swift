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
        self.init(bytes, range: 0..<bytes.count, errorCode: errorCode)
    }

    /// A reader of `bytes[range]` alone (a payload inside a whole file's buffer); offsets and
    /// returned ranges stay those of `bytes`.
    init(_ bytes: [UInt8], range: Range<Int>, errorCode: SWCredError.Code) {
        self.bytes = bytes
        self.offset = max(0, min(range.lowerBound, bytes.count))
        self.end = max(offset, min(range.upperBound, bytes.count))
        self.errorCode = errorCode
    }

    var remaining: Int { end - offset }

    /// The whole data (for building values from the ranges the reader returned).
    var data: [UInt8] { bytes }

    func fail(_ message: String) -> SWCredError { SWCredError(errorCode, message) }

    /// Runs `body` with a ``ByteCursor`` at the current offset, then moves past what it read.
    /// Each read below is the cursor's; a loop over many fields (the items of a payload) reads
    /// them all in one call, through a pointer.
    @inline(__always)
    mutating func withCursor<R>(_ body: (inout ByteCursor) throws(SWCredError) -> R) throws(SWCredError) -> R {
        let start = offset
        let code = errorCode
        let end = self.end
        let outcome: Result<(R, Int), SWCredError> = bytes.withUnsafeBytes { buffer in
            var cursor = ByteCursor(UnsafeRawBufferPointer(rebasing: buffer[0..<end]), offset: start, errorCode: code)
            do throws(SWCredError) {
                let value = try body(&cursor)
                return .success((value, cursor.offset))
            } catch {
                return .failure(error)
            }
        }
        let (value, newOffset) = try outcome.get()
        offset = newOffset
        return value
    }

    mutating func take(_ count: Int) throws(SWCredError) -> ArraySlice<UInt8> {
        let start = try withCursor { (c: inout ByteCursor) throws(SWCredError) in try c.advance(count) }
        return bytes[start..<(start + count)]
    }

    mutating func u8() throws(SWCredError) -> UInt8 { try withCursor { (c: inout ByteCursor) throws(SWCredError) in try c.u8() } }
    mutating func bool() throws(SWCredError) -> Bool { try withCursor { (c: inout ByteCursor) throws(SWCredError) in try c.bool() } }
    mutating func u16() throws(SWCredError) -> UInt16 { try withCursor { (c: inout ByteCursor) throws(SWCredError) in try c.u16() } }
    mutating func u32() throws(SWCredError) -> UInt32 { try withCursor { (c: inout ByteCursor) throws(SWCredError) in try c.u32() } }
    mutating func u64() throws(SWCredError) -> UInt64 { try withCursor { (c: inout ByteCursor) throws(SWCredError) in try c.u64() } }
    mutating func i64() throws(SWCredError) -> Int64 { try withCursor { (c: inout ByteCursor) throws(SWCredError) in try c.i64() } }

    mutating func bytes16(max: Int) throws(SWCredError) -> [UInt8] {
        Array(bytes[try range16(max: max)])
    }

    /// A byte field with a 16-bit length, as a range of the data (nothing is copied).
    mutating func range16(max: Int) throws(SWCredError) -> Range<Int> {
        try withCursor { (c: inout ByteCursor) throws(SWCredError) in try c.range16(max: max) }
    }

    /// A UTF-8 field with a 16-bit length, validated, as a range of the data (nothing is copied).
    mutating func utf8Range16(_ name: String, min: Int = 0, max: Int) throws(SWCredError) -> Range<Int> {
        try withCursor { (c: inout ByteCursor) throws(SWCredError) in try c.utf8Range16(name, min: min, max: max) }
    }

    mutating func string16(_ name: String, min: Int = 0, max: Int) throws(SWCredError) -> String {
        let range = try utf8Range16(name, min: min, max: max)
        return Self.string(bytes, range)
    }

    /// A four-character code (length 0 or 4, printable ASCII), as a range of the data.
    mutating func fourCharacterCodeRange(_ name: String) throws(SWCredError) -> Range<Int> {
        try withCursor { (c: inout ByteCursor) throws(SWCredError) in try c.fourCharacterCodeRange(name) }
    }

    mutating func fourCharacterCode(_ name: String) throws(SWCredError) -> String {
        Self.string(bytes, try fourCharacterCodeRange(name))
    }

    /// The string of `bytes[range]`, which ``ByteCursor/isValidUTF8(_:)`` has accepted.
    static func string(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { buffer in String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self) }
    }

    func expectEnd() throws(SWCredError) {
        guard remaining == 0 else { throw fail("\(remaining) bytes of trailing data") }
    }
}

/// The reads of ``ByteReader`` over the data's bytes through a pointer, valid inside
/// ``ByteReader/withCursor(_:)`` only. Every read is bounds-checked and throws the reader's error
/// code; nothing traps on input.
struct ByteCursor {
    private let buffer: UnsafeRawBufferPointer
    private(set) var offset: Int
    private let errorCode: SWCredError.Code

    init(_ buffer: UnsafeRawBufferPointer, offset: Int, errorCode: SWCredError.Code) {
        self.buffer = buffer
        self.offset = offset
        self.errorCode = errorCode
    }

    /// The whole data (for the ranges the cursor returned).
    var data: UnsafeRawBufferPointer { buffer }

    func fail(_ message: String) -> SWCredError { SWCredError(errorCode, message) }

    /// Claims the next `count` bytes and returns where they start.
    @inline(__always)
    mutating func advance(_ count: Int) throws(SWCredError) -> Int {
        guard count >= 0, count <= buffer.count - offset else {
            throw fail("the data ends early (needs \(count) more bytes)")
        }
        let start = offset
        offset += count
        return start
    }

    @inline(__always)
    private mutating func integer<T: FixedWidthInteger>(_: T.Type) throws(SWCredError) -> T {
        let start = try advance(MemoryLayout<T>.size)
        return T(littleEndian: buffer.loadUnaligned(fromByteOffset: start, as: T.self))
    }

    @inline(__always)
    mutating func u8() throws(SWCredError) -> UInt8 { try integer(UInt8.self) }
    @inline(__always)
    mutating func u16() throws(SWCredError) -> UInt16 { try integer(UInt16.self) }
    mutating func u32() throws(SWCredError) -> UInt32 { try integer(UInt32.self) }
    mutating func u64() throws(SWCredError) -> UInt64 { try integer(UInt64.self) }
    @inline(__always)
    mutating func i64() throws(SWCredError) -> Int64 { try integer(Int64.self) }

    @inline(__always)
    mutating func bool() throws(SWCredError) -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        default: throw fail("a Boolean byte is neither 0 nor 1")
        }
    }

    /// A byte field with a 16-bit length, as a range of the data.
    @inline(__always)
    mutating func range16(max: Int) throws(SWCredError) -> Range<Int> {
        let count = Int(try u16())
        guard count <= max else { throw fail("a field is \(count) bytes; the limit is \(max)") }
        let start = try advance(count)
        return start..<(start + count)
    }

    /// A UTF-8 field with a 16-bit length, validated, as a range of the data.
    @inline(__always)
    mutating func utf8Range16(_ name: String, min: Int = 0, max: Int) throws(SWCredError) -> Range<Int> {
        let count = Int(try u16())
        guard count >= min else { throw fail("\(name) is empty") }
        guard count <= max else { throw fail("\(name) is \(count) bytes; the limit is \(max)") }
        let start = try advance(count)
        guard Self.isValidUTF8(UnsafeRawBufferPointer(rebasing: buffer[start..<(start + count)])) else {
            throw fail("\(name) is not valid UTF-8")
        }
        return start..<(start + count)
    }

    /// A four-character code (length 0 or 4, printable ASCII), as a range of the data.
    @inline(__always)
    mutating func fourCharacterCodeRange(_ name: String) throws(SWCredError) -> Range<Int> {
        let count = Int(try u8())
        guard count == 0 || count == 4 else { throw fail("\(name) is not a four-character code") }
        let start = try advance(count)
        for index in start..<(start + count) where !(0x20...0x7E).contains(buffer[index]) {
            throw fail("\(name) is not printable ASCII")
        }
        return start..<(start + count)
    }

    /// Whether `field` is valid UTF-8: every byte below 0x80 (tested eight bytes at a time), or
    /// else accepted by the standard library's validation.
    @inline(__always)
    static func isValidUTF8(_ field: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        var high: UInt64 = 0
        while index + 8 <= field.count {
            high |= field.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < field.count {
            high |= UInt64(field[index])
            index += 1
        }
        if high & 0x8080_8080_8080_8080 == 0 { return true }
        return String(validating: field.assumingMemoryBound(to: UInt8.self), as: UTF8.self) != nil
    }
}
