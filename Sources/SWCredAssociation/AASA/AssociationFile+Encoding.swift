// AD-3.9 and the Decision in Docs.docc/Decisions.md ("Encodings"): Apple's JSON reader
// (Foundation's JSONSerialization) also reads UTF-16 and UTF-32, with or without a byte-order
// mark, so a device accepts such a file. swcred reads it the same way: the body is transcoded to
// UTF-8 before the strict JSON reader runs, and a warning says that the route through Apple's CDN
// is untested for such files.
extension AssociationFile {
    /// A Unicode encoding other than UTF-8 that Apple's JSON reader accepts.
    public enum OtherUnicodeEncoding: String, Sendable, Hashable, Codable, CaseIterable {
        /// UTF-16, big-endian.
        case utf16BigEndian = "UTF-16BE"
        /// UTF-16, little-endian.
        case utf16LittleEndian = "UTF-16LE"
        /// UTF-32, big-endian.
        case utf32BigEndian = "UTF-32BE"
        /// UTF-32, little-endian.
        case utf32LittleEndian = "UTF-32LE"

        var unitSize: Int {
            switch self {
            case .utf16BigEndian, .utf16LittleEndian: 2
            case .utf32BigEndian, .utf32LittleEndian: 4
            }
        }

        var bigEndian: Bool { self == .utf16BigEndian || self == .utf32BigEndian }
    }

    /// The encoding of `bytes` when it is UTF-16 or UTF-32, and the length of its byte-order mark.
    ///
    /// Steps (the detection of RFC 4627 §3, which Foundation also applies): a UTF-32 mark is
    /// tested before the UTF-16 one it starts with; without a mark, JSON text starts with an ASCII
    /// character, so the zero bytes among the first four tell the encoding. `nil` for UTF-8 (with
    /// or without its own mark) and for anything else.
    static func otherUnicodeEncoding(of bytes: [UInt8]) -> (encoding: OtherUnicodeEncoding, markLength: Int)? {
        // Step 1: byte-order marks, longest first.
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return (.utf32BigEndian, 4) }
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return (.utf32LittleEndian, 4) }
        if bytes.starts(with: [0xFE, 0xFF]) { return (.utf16BigEndian, 2) }
        if bytes.starts(with: [0xFF, 0xFE]) { return (.utf16LittleEndian, 2) }
        // Step 2: no mark; the first character is ASCII and not NUL.
        guard bytes.count >= 2 else { return nil }
        if bytes.count >= 4 {
            let head = Array(bytes.prefix(4))
            if head[0] == 0, head[1] == 0, head[2] == 0, head[3] != 0 { return (.utf32BigEndian, 0) }
            if head[0] != 0, head[1] == 0, head[2] == 0, head[3] == 0 { return (.utf32LittleEndian, 0) }
        }
        if bytes[0] == 0, bytes[1] != 0, bytes[1] < 0x80 { return (.utf16BigEndian, 0) }
        if bytes[0] != 0, bytes[0] < 0x80, bytes[1] == 0 { return (.utf16LittleEndian, 0) }
        return nil
    }

    /// `bytes` (after a mark of `markLength` bytes) transcoded from `encoding` to UTF-8, or `nil`
    /// when they are not valid in that encoding (a length that is not a whole number of code
    /// units, a lone surrogate, a value above U+10FFFF). Never traps.
    static func transcodeToUTF8(
        _ bytes: [UInt8], from encoding: OtherUnicodeEncoding, markLength: Int
    ) -> [UInt8]? {
        let size = encoding.unitSize
        let body = bytes.dropFirst(markLength)
        guard body.count % size == 0 else { return nil }
        var units: [UInt32] = []
        units.reserveCapacity(body.count / size)
        var index = body.startIndex
        while index < body.endIndex {
            var unit: UInt32 = 0
            for offset in 0..<size {
                let byte = UInt32(body[index + (encoding.bigEndian ? offset : size - 1 - offset)])
                unit = unit << 8 | byte
            }
            units.append(unit)
            index += size
        }
        var output: [UInt8] = []
        output.reserveCapacity(units.count)
        var position = 0
        while position < units.count {
            var value = units[position]
            position += 1
            if size == 2, (0xD800...0xDBFF).contains(value) {
                // A high surrogate needs a low one right after it.
                guard position < units.count, (0xDC00...0xDFFF).contains(units[position]) else { return nil }
                value = 0x10000 + ((value - 0xD800) << 10) + (units[position] - 0xDC00)
                position += 1
            }
            guard let scalar = Unicode.Scalar(value) else { return nil }
            UTF8.encode(scalar) { output.append($0) }
        }
        return output
    }
}
