import SWCredCore

/// A bounds-checked view of part of a byte buffer: every read names what it reads and throws
/// `malformedArtifact` instead of trapping when it falls outside the window or overflows.
///
/// Offsets are relative to the window's start. Arithmetic on offsets read from the file goes
/// through `addingReportingOverflow` and `Int(exactly:)`, never plain `+`.
struct ByteWindow: Sendable {
    /// The whole buffer the window looks into.
    let bytes: [UInt8]
    /// Where the window starts in `bytes`.
    let start: Int
    /// The window's length.
    let count: Int
    /// What the window holds, for messages ("slice 1", "code signature").
    let name: String

    /// The whole buffer as a window.
    init(_ bytes: [UInt8], name: String) {
        self.bytes = bytes
        self.start = 0
        self.count = bytes.count
        self.name = name
    }

    private init(bytes: [UInt8], start: Int, count: Int, name: String) {
        self.bytes = bytes
        self.start = start
        self.count = count
        self.name = name
    }

    /// The window's bytes, copied out.
    var contents: [UInt8] { Array(bytes[start..<(start + count)]) }

    /// Checks that `length` bytes at `offset` lie inside the window and returns the absolute start.
    func check(_ offset: Int, _ length: Int, _ what: @autoclosure () -> String) throws(SWCredError) -> Int {
        guard offset >= 0, length >= 0 else {
            throw SWCredError(.malformedArtifact, "\(name): \(what()) has a negative offset or length")
        }
        let (end, overflow) = offset.addingReportingOverflow(length)
        guard !overflow, end <= count else {
            throw SWCredError(
                .malformedArtifact,
                "\(name): \(what()) (\(length) bytes at offset \(offset)) runs past the end (\(count) bytes)")
        }
        return start + offset
    }

    /// A window of `length` bytes at `offset`, both as read from the file.
    func window<Offset: BinaryInteger, Length: BinaryInteger>(
        at offset: Offset, length: Length, name: String
    ) throws(SWCredError) -> ByteWindow {
        guard let offset = Int(exactly: offset), let length = Int(exactly: length) else {
            throw SWCredError(.malformedArtifact, "\(self.name): \(name) has an offset or length out of range")
        }
        let absolute = try check(offset, length, name)
        return ByteWindow(bytes: bytes, start: absolute, count: length, name: name)
    }

    /// An unsigned 32-bit integer at `offset`.
    func uint32(at offset: Int, bigEndian: Bool, _ what: @autoclosure () -> String) throws(SWCredError) -> UInt32 {
        let at = try check(offset, 4, what())
        var value: UInt32 = 0
        for index in 0..<4 {
            let byte = UInt32(bytes[at + (bigEndian ? index : 3 - index)])
            value = value << 8 | byte
        }
        return value
    }

    /// An unsigned 64-bit integer at `offset`.
    func uint64(at offset: Int, bigEndian: Bool, _ what: @autoclosure () -> String) throws(SWCredError) -> UInt64 {
        let at = try check(offset, 8, what())
        var value: UInt64 = 0
        for index in 0..<8 {
            let byte = UInt64(bytes[at + (bigEndian ? index : 7 - index)])
            value = value << 8 | byte
        }
        return value
    }

    /// An unsigned 16-bit little-endian integer at `offset` (zip archives).
    func uint16(at offset: Int, _ what: @autoclosure () -> String) throws(SWCredError) -> UInt16 {
        let at = try check(offset, 2, what())
        return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    /// One byte at `offset`.
    func uint8(at offset: Int, _ what: @autoclosure () -> String) throws(SWCredError) -> UInt8 {
        bytes[try check(offset, 1, what())]
    }

    /// `length` bytes at `offset`, copied out.
    func slice(at offset: Int, length: Int, _ what: @autoclosure () -> String) throws(SWCredError) -> [UInt8] {
        let at = try check(offset, length, what())
        return Array(bytes[at..<(at + length)])
    }

    /// A NUL-terminated string starting at `offset`, within the window, at most `limit` bytes.
    func cString(at offset: Int, limit: Int, _ what: @autoclosure () -> String) throws(SWCredError) -> String {
        let at = try check(offset, 0, what())
        let end = start + count
        var index = at
        while index < end, bytes[index] != 0 {
            guard index - at < limit else {
                throw SWCredError(.malformedArtifact, "\(name): \(what()) is longer than \(limit) bytes")
            }
            index += 1
        }
        guard index < end else {
            throw SWCredError(.malformedArtifact, "\(name): \(what()) at offset \(offset) is not NUL-terminated")
        }
        guard let string = String(validating: bytes[at..<index], as: UTF8.self) else {
            throw SWCredError(.malformedArtifact, "\(name): \(what()) at offset \(offset) is not UTF-8")
        }
        return string
    }
}
