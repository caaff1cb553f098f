extension BinaryPropertyListParser {
    /// An integer object: 1, 2 or 4 bytes unsigned, 8 bytes signed, or 16 bytes holding a
    /// value of the 64-bit range (above Int64.max, or a sign-extended negative).
    func integer(at offset: Int, sizeLog: Int, end: Int) throws(Failure) -> PropertyListValue {
        guard sizeLog <= 4 else { throw failure(.syntax, at: offset, "an integer wider than 16 bytes") }
        let size = 1 << sizeLog
        try need(size, from: offset + 1, end: end, what: "an integer")
        switch size {
        case 16:
            let high = unsigned(at: offset + 1, size: 8)
            let low = unsigned(at: offset + 9, size: 8)
            if high == 0 { return Self.normalised(low) }
            guard high == .max, Int64(bitPattern: low) < 0 else {
                throw failure(.unsupported, at: offset, "an integer outside the 64-bit range")
            }
            return .integer(Int64(bitPattern: low))
        case 8:
            return .integer(Int64(bitPattern: unsigned(at: offset + 1, size: 8)))
        default:
            return .integer(Int64(unsigned(at: offset + 1, size: size)))
        }
    }

    /// `.integer` when `value` fits an `Int64`, `.unsignedInteger` above.
    static func normalised(_ value: UInt64) -> PropertyListValue {
        if let signed = Int64(exactly: value) { return .integer(signed) }
        return .unsignedInteger(value)
    }

    /// The length of a data, string or container object and where its content starts: the
    /// marker's low nibble, or, when that is 0xF, an integer object (1, 2, 4 or 8 bytes) after it.
    func length(at offset: Int, end: Int) throws(Failure) -> (length: Int, start: Int) {
        let low = Int(bytes[offset] & 0x0F)
        if low != 0x0F { return (low, offset + 1) }
        try need(1, from: offset + 1, end: end, what: "a length")
        let marker = bytes[offset + 1]
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else {
            throw failure(.syntax, at: offset + 1, "a length that is not a 1-, 2-, 4- or 8-byte integer")
        }
        let size = 1 << Int(marker & 0x0F)
        try need(size, from: offset + 2, end: end, what: "a length")
        guard let length = Int(exactly: unsigned(at: offset + 2, size: size)) else {
            throw failure(.outOfBounds, at: offset + 2, "a length beyond the file")
        }
        return (length, offset + 2 + size)
    }

    /// An ASCII string object: `length` bytes, each below 0x80.
    func asciiString(at offset: Int, end: Int) throws(Failure) -> String {
        let (length, start) = try length(at: offset, end: end)
        guard length <= limits.maxStringBytes else { throw stringTooLong(at: offset) }
        try need(length, from: start, end: end, what: "a string")
        let content = UnsafeBufferPointer(rebasing: bytes[start..<(start + length)])
        guard content.allSatisfy({ $0 < 0x80 }) else {
            throw failure(.encoding, at: offset, "an ASCII string with a byte above 0x7F")
        }
        return String(decoding: content, as: UTF8.self)
    }

    /// A UTF-16BE string object: `length` code units, surrogates in pairs.
    func utf16String(at offset: Int, end: Int) throws(Failure) -> String {
        let (length, start) = try length(at: offset, end: end)
        // Each unit is at least one UTF-8 byte, so a longer count is over the limit already.
        guard length <= limits.maxStringBytes else { throw stringTooLong(at: offset) }
        // length ≤ maxStringBytes ≤ Int.max / 2 is not given: multiply with a check.
        guard case (let byteCount, false) = length.multipliedReportingOverflow(by: 2) else {
            throw failure(.outOfBounds, at: offset, "a UTF-16 string runs past the object area")
        }
        try need(byteCount, from: start, end: end, what: "a UTF-16 string")
        var units: [UInt16] = []
        units.reserveCapacity(length)
        var index = 0
        while index < length {
            let unit = UInt16(bytes[start + 2 * index]) << 8 | UInt16(bytes[start + 2 * index + 1])
            switch unit {
            case 0xD800...0xDBFF:
                guard index + 1 < length else { throw loneSurrogate(at: start + 2 * index) }
                let next = UInt16(bytes[start + 2 * index + 2]) << 8 | UInt16(bytes[start + 2 * index + 3])
                guard (0xDC00...0xDFFF).contains(next) else { throw loneSurrogate(at: start + 2 * index) }
                units.append(unit)
                units.append(next)
                index += 2
            case 0xDC00...0xDFFF:
                throw loneSurrogate(at: start + 2 * index)
            default:
                units.append(unit)
                index += 1
            }
        }
        let string = String(decoding: units, as: UTF16.self)
        guard string.utf8.count <= limits.maxStringBytes else { throw stringTooLong(at: offset) }
        return string
    }

    func loneSurrogate(at offset: Int) -> Failure {
        failure(.encoding, at: offset, "a UTF-16 string with an unpaired surrogate")
    }

    func stringTooLong(at offset: Int) -> Failure {
        failure(.limitExceeded, at: offset, "a string longer than \(limits.maxStringBytes) bytes")
    }
}
