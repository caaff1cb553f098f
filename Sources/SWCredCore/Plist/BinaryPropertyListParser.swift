/// The work of ``PropertyListReader`` on a binary plist (`bplist00`), over one borrowed buffer.
///
/// Layout (CoreFoundation's `CFBinaryPList.c`): an 8-byte header, the objects, an offset table
/// (one `offsetSize`-byte big-endian offset per object) and a 32-byte trailer. Containers hold
/// `refSize`-byte object numbers. Every read is bounds-checked: no input reads outside the buffer,
/// and lengths and counts are multiplied and added with overflow checks.
///
/// Each object is read once: its value, the number of values its tree counts and its height are
/// kept, so a shared object costs no work when referenced again, yet is counted again against
/// ``PropertyListReader/Limits/maxValues`` and the depth limit.
struct BinaryPropertyListParser {
    typealias Failure = PropertyListReader.Failure

    /// An object read: its value, how many values its tree holds, and how many containers deep
    /// it is (0 for a scalar).
    struct Read {
        var value: PropertyListValue
        var values: Int
        var height: Int
    }

    enum State {
        case unread
        case reading
        case read(Read)
    }

    static let trailerSize = 32
    static let headerSize = 8

    let bytes: UnsafeBufferPointer<UInt8>
    let limits: PropertyListReader.Limits
    var offsetSize = 0
    var refSize = 0
    var objectCount = 0
    var tableOffset = 0
    var states: [State] = []
    /// Values counted so far against ``PropertyListReader/Limits/maxValues``.
    var values = 0

    init(bytes: UnsafeBufferPointer<UInt8>, limits: PropertyListReader.Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    func failure(_ kind: Failure.Kind, at offset: Int, _ message: String) -> Failure {
        Failure(kind: kind, offset: offset, message: message)
    }

    /// Reads the document: header, trailer, then the top object's tree.
    mutating func document() throws(Failure) -> PropertyListValue {
        // Step 1: the header, "bplist00". Other versions (bplist15, bplist16) are not plist 1.0.
        guard bytes.count >= Self.headerSize, bytes.starts(with: Array("bplist".utf8)) else {
            throw failure(.syntax, at: 0, "not a binary property list")
        }
        guard bytes[6] == UInt8(ascii: "0"), bytes[7] == UInt8(ascii: "0") else {
            throw failure(.unsupported, at: 6, "binary property list version other than 00")
        }
        // Step 2: the trailer, the last 32 bytes: 5 unused, sort version, offset size, reference
        // size, object count, top object, offset-table offset (three big-endian UInt64).
        guard bytes.count >= Self.headerSize + 1 + 1 + Self.trailerSize else {
            throw failure(.outOfBounds, at: bytes.count, "the binary property list is too short for its trailer")
        }
        let trailer = bytes.count - Self.trailerSize
        offsetSize = Int(bytes[trailer + 6])
        refSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize) else {
            throw failure(.outOfBounds, at: trailer + 6, "the trailer's offset size is not 1 to 8")
        }
        guard (1...8).contains(refSize) else {
            throw failure(.outOfBounds, at: trailer + 7, "the trailer's object reference size is not 1 to 8")
        }
        let count = trailerField(trailer + 8)
        let top = trailerField(trailer + 16)
        let table = trailerField(trailer + 24)
        guard count >= 1 else { throw failure(.outOfBounds, at: trailer + 8, "the trailer's object count is 0") }
        guard count <= UInt64(clamping: limits.maxValues) else {
            throw failure(.limitExceeded, at: trailer + 8, "more than \(limits.maxValues) objects")
        }
        guard top < count else {
            throw failure(.outOfBounds, at: trailer + 16, "the trailer's top object is not in the object table")
        }
        // The offset table lies between the first object and the trailer.
        guard table >= UInt64(Self.headerSize + 1), table <= UInt64(trailer),
            case (let tableBytes, false) = count.multipliedReportingOverflow(by: UInt64(offsetSize)),
            tableBytes <= UInt64(trailer) - table
        else {
            throw failure(.outOfBounds, at: trailer + 24, "the trailer's offset table lies outside the file")
        }
        // count and table are now below bytes.count: they fit an Int.
        objectCount = Int(count)
        tableOffset = Int(table)
        states = Array(repeating: .unread, count: objectCount)
        // Step 3: the top object's tree.
        return try object(Int(top), depth: 0, from: trailer + 16).value
    }

    /// A big-endian UInt64 of the trailer.
    func trailerField(_ offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + 8) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    /// A big-endian unsigned integer of `size` (1…8) bytes at `offset`, already bounds-checked.
    func unsigned(at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    /// The offset of object `number` (< objectCount) from the offset table: after the header
    /// and before the table.
    func objectOffset(_ number: Int) throws(Failure) -> Int {
        let entry = tableOffset + number * offsetSize  // within the table: checked in document()
        let offset = unsigned(at: entry, size: offsetSize)
        guard offset >= UInt64(Self.headerSize), offset < UInt64(tableOffset) else {
            throw failure(.outOfBounds, at: entry, "object \(number)'s offset lies outside the object area")
        }
        return Int(offset)
    }

    /// Object `number` at `depth` containers down, read or taken from what was read before.
    mutating func object(_ number: Int, depth: Int, from reference: Int) throws(Failure) -> Read {
        guard number >= 0, number < objectCount else {
            throw failure(.outOfBounds, at: reference, "an object reference is not in the object table")
        }
        switch states[number] {
        case .reading:
            throw failure(.cycle, at: reference, "object \(number) contains itself")
        case .read(let read):
            guard depth + read.height <= limits.maxDepth else { throw tooDeep(at: reference) }
            try count(read.values, at: reference)
            return read
        case .unread:
            states[number] = .reading
            let start = values
            let offset = try objectOffset(number)
            let (value, height) = try parseObject(at: offset, depth: depth)
            let read = Read(value: value, values: values - start, height: height)
            states[number] = .read(read)
            return read
        }
    }

    func tooDeep(at offset: Int) -> Failure {
        failure(.limitExceeded, at: offset, "nesting deeper than \(limits.maxDepth) levels")
    }

    /// Counts `added` values against ``PropertyListReader/Limits/maxValues``.
    mutating func count(_ added: Int, at offset: Int) throws(Failure) {
        guard added <= limits.maxValues - values else {
            throw failure(.limitExceeded, at: offset, "more than \(limits.maxValues) values")
        }
        values += added
    }

    /// The object at `offset` (its marker byte): a scalar, a string, data, or a container whose
    /// children are read in turn. Returns the value and its height.
    mutating func parseObject(at offset: Int, depth: Int) throws(Failure) -> (PropertyListValue, Int) {
        try count(1, at: offset)
        let marker = bytes[offset]
        let low = Int(marker & 0x0F)
        // Objects end before the offset table.
        let end = tableOffset
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return (.bool(false), 0)
            case 0x09: return (.bool(true), 0)
            case 0x00: throw failure(.unsupported, at: offset, "a null object (no plist type)")
            case 0x0F: throw failure(.unsupported, at: offset, "a fill byte used as an object")
            default: throw failure(.syntax, at: offset, "an unknown object marker")
            }
        case 0x1:
            return (try integer(at: offset, sizeLog: low, end: end), 0)
        case 0x2:
            guard low == 2 || low == 3 else { throw failure(.syntax, at: offset, "a real that is not 4 or 8 bytes") }
            let size = 1 << low
            try need(size, from: offset + 1, end: end, what: "a real")
            let bits = unsigned(at: offset + 1, size: size)
            let real =
                size == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))) : Double(bitPattern: bits)
            return (.real(real), 0)
        case 0x3:
            guard marker == 0x33 else { throw failure(.syntax, at: offset, "a date that is not 8 bytes") }
            try need(8, from: offset + 1, end: end, what: "a date")
            return (.date(Double(bitPattern: unsigned(at: offset + 1, size: 8))), 0)
        case 0x4:
            let (length, start) = try length(at: offset, end: end)
            try need(length, from: start, end: end, what: "data")
            return (.data(Array(UnsafeBufferPointer(rebasing: bytes[start..<(start + length)]))), 0)
        case 0x5:
            return (.string(try asciiString(at: offset, end: end)), 0)
        case 0x6:
            return (.string(try utf16String(at: offset, end: end)), 0)
        case 0x8:
            // A UID: low + 1 bytes; more than 8 would not fit the UInt64 it stands for.
            guard low < 8 else { throw failure(.unsupported, at: offset, "a UID wider than 8 bytes") }
            try need(low + 1, from: offset + 1, end: end, what: "a UID")
            return (.uid(unsigned(at: offset + 1, size: low + 1)), 0)
        case 0xA:
            return try array(at: offset, depth: depth + 1, end: end)
        case 0xD:
            return try dictionary(at: offset, depth: depth + 1, end: end)
        case 0xB, 0xC:
            throw failure(.unsupported, at: offset, "a set (no plist type)")
        default:
            throw failure(.syntax, at: offset, "an unknown object marker")
        }
    }

    /// Throws unless `size` bytes from `start` lie before `end`.
    func need(_ size: Int, from start: Int, end: Int, what: StaticString) throws(Failure) {
        guard start <= end, size <= end - start else {
            throw failure(.outOfBounds, at: start, "\(what) runs past the object area")
        }
    }

    /// The `count` object references of a container, starting at `start`.
    func references(count: Int, from start: Int, at offset: Int, end: Int) throws(Failure) -> [Int] {
        guard case (let size, false) = count.multipliedReportingOverflow(by: refSize) else {
            throw failure(.outOfBounds, at: offset, "a container's references run past the object area")
        }
        try need(size, from: start, end: end, what: "a container's references")
        var references: [Int] = []
        references.reserveCapacity(count)
        for index in 0..<count {
            // refSize ≤ 8 and the value is compared with objectCount below: a huge value fails.
            let value = unsigned(at: start + index * refSize, size: refSize)
            guard value < UInt64(objectCount) else {
                throw failure(
                    .outOfBounds, at: start + index * refSize, "an object reference is not in the object table")
            }
            references.append(Int(value))
        }
        return references
    }

    /// An array object: its element references, each element read in turn.
    mutating func array(at offset: Int, depth: Int, end: Int) throws(Failure) -> (PropertyListValue, Int) {
        guard depth <= limits.maxDepth else { throw tooDeep(at: offset) }
        let (count, start) = try length(at: offset, end: end)
        guard count <= limits.maxElements else {
            throw failure(.limitExceeded, at: offset, "an array of more than \(limits.maxElements) elements")
        }
        let references = try references(count: count, from: start, at: offset, end: end)
        var elements: [PropertyListValue] = []
        elements.reserveCapacity(count)
        var height = 1
        for (index, reference) in references.enumerated() {
            let read = try object(reference, depth: depth, from: start + index * refSize)
            elements.append(read.value)
            height = max(height, read.height + 1)
        }
        return (.array(elements), height)
    }

    /// A dictionary object: `count` key references, then `count` value references. Keys must be
    /// strings, each once.
    mutating func dictionary(at offset: Int, depth: Int, end: Int) throws(Failure) -> (PropertyListValue, Int) {
        guard depth <= limits.maxDepth else { throw tooDeep(at: offset) }
        let (count, start) = try length(at: offset, end: end)
        guard count <= limits.maxElements else {
            throw failure(.limitExceeded, at: offset, "a dictionary of more than \(limits.maxElements) entries")
        }
        guard case (let total, false) = count.multipliedReportingOverflow(by: 2) else {
            throw failure(.outOfBounds, at: offset, "a dictionary's references run past the object area")
        }
        let references = try references(count: total, from: start, at: offset, end: end)
        var entries: [PropertyListDictionary.Entry] = []
        entries.reserveCapacity(count)
        var seen = Set<String>()
        var height = 1
        for index in 0..<count {
            let keyAt = start + index * refSize
            // A key must be a string object: checked on its marker before it is read, so a key
            // that is a large container costs nothing.
            let keyOffset = try objectOffset(references[index])
            guard bytes[keyOffset] >> 4 == 0x5 || bytes[keyOffset] >> 4 == 0x6 else {
                throw failure(.syntax, at: keyAt, "a dictionary key is not a string")
            }
            guard case .string(let key) = try object(references[index], depth: depth, from: keyAt).value else {
                throw failure(.syntax, at: keyAt, "a dictionary key is not a string")
            }
            guard seen.insert(key).inserted else {
                throw failure(.duplicateKey(key), at: keyAt, "duplicate key \"\(key.prefix(64))\"")
            }
            let value = try object(references[count + index], depth: depth, from: start + (count + index) * refSize)
            entries.append(PropertyListDictionary.Entry(key: key, value: value.value))
            height = max(height, value.height + 1)
        }
        return (.dictionary(PropertyListDictionary(entries)), height)
    }
}
