/// The recursive-descent work of ``JSONReader`` over one borrowed buffer (RFC 8259 §2–§7).
///
/// Every read of `bytes[index]` is preceded by an `index < bytes.count` check, so no input can
/// read outside the buffer. Paths are not built while reading: a failure collects its path on the
/// way out (``JSONReader/Failure/components``), and a reported duplicate gets its path from the
/// containers it ends in, so a valid document pays for no path strings.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: JSONReader.Limits
    let refuseDuplicates: Bool
    var index = 0
    /// Reported duplicates; `components` are innermost first until ``finishedDuplicates()``.
    var duplicates: [(components: [JSONPath.Component], key: String)] = []

    init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONReader.Limits, refuseDuplicates: Bool) {
        self.bytes = bytes
        self.limits = limits
        self.refuseDuplicates = refuseDuplicates
    }

    func failure(_ kind: JSONReader.Failure.Kind, _ message: String) -> JSONReader.Failure {
        JSONReader.Failure(kind: kind, offset: index, message: message)
    }

    func syntax(_ message: String) -> JSONReader.Failure { failure(.syntax, message) }

    /// RFC 8259 §2: `JSON-text = ws value ws`.
    mutating func document() throws(JSONReader.Failure) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw syntax("unexpected data after the JSON value") }
        return value
    }

    /// The reported duplicates with their paths rendered outermost first.
    func finishedDuplicates() -> [JSONReader.DuplicateKey] {
        duplicates.map { JSONReader.DuplicateKey(path: JSONPath.render($0.components.reversed()), key: $0.key) }
    }

    /// RFC 8259 §2: `ws = *( %x20 / %x09 / %x0A / %x0D )`.
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// RFC 8259 §3: a value is an object, array, number, string, `false`, `null` or `true`.
    mutating func parseValue(depth: Int) throws(JSONReader.Failure) -> JSONValue {
        guard index < bytes.count else { throw syntax("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw syntax("invalid value")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONReader.Failure) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw syntax("invalid literal") }
        let start = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] {
            throw syntax("invalid literal")
        }
        index += count
    }

    /// RFC 8259 §4: `begin-object [ member *( value-separator member ) ] end-object`.
    mutating func parseObject(depth: Int) throws(JSONReader.Failure) -> JSONValue {
        guard depth <= limits.maxDepth else {
            throw failure(.limitExceeded, "nesting deeper than \(limits.maxDepth) levels")
        }
        index += 1  // {
        var members: [JSONObject.Member] = []
        var seen: Set<String>?  // built once an object outgrows a linear scan
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject(members))
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw syntax("expected a string key") }
            let key = try parseString()
            let repeated = Self.isRepeated(key, in: members, seen: &seen)
            if repeated && refuseDuplicates {
                var error = failure(.duplicateKey(key), "duplicate key \"\(key.prefix(64))\"")
                error.components = [.key(key)]
                throw error
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw syntax("expected ':'") }
            index += 1
            skipWhitespace()
            let reported = duplicates.count
            let value: JSONValue
            do throws(JSONReader.Failure) {
                value = try parseValue(depth: depth)
            } catch {
                throw error.inside(.key(key))
            }
            if duplicates.count > reported { markDuplicates(from: reported, inside: .key(key)) }
            if repeated { duplicates.append((components: [], key: key)) }
            members.append(JSONObject.Member(key: key, value: value))
            if try another(count: members.count, closing: UInt8(ascii: "}"), "object", "members") { continue }
            return .object(JSONObject(members))
        }
    }

    /// Whether `key` is already a member; small objects compare linearly, larger ones use a set.
    static func isRepeated(_ key: String, in members: [JSONObject.Member], seen: inout Set<String>?) -> Bool {
        if members.count < 16 { return members.contains { $0.key == key } }
        if seen == nil { seen = Set(members.lazy.map(\.key)) }
        return seen?.insert(key).inserted == false
    }

    /// RFC 8259 §5: `begin-array [ value *( value-separator value ) ] end-array`.
    mutating func parseArray(depth: Int) throws(JSONReader.Failure) -> JSONValue {
        guard depth <= limits.maxDepth else {
            throw failure(.limitExceeded, "nesting deeper than \(limits.maxDepth) levels")
        }
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            let reported = duplicates.count
            do throws(JSONReader.Failure) {
                elements.append(try parseValue(depth: depth))
            } catch {
                throw error.inside(.index(elements.count))
            }
            if duplicates.count > reported { markDuplicates(from: reported, inside: .index(elements.count - 1)) }
            if try another(count: elements.count, closing: UInt8(ascii: "]"), "array", "elements") { continue }
            return .array(elements)
        }
    }

    /// After a member or element: the count limit, then `value-separator` (another follows:
    /// `true`) or the closing byte (the container ends: `false`).
    mutating func another(
        count: Int, closing close: UInt8, _ container: StaticString, _ items: StaticString
    ) throws(JSONReader.Failure) -> Bool {
        guard count <= limits.maxMembers else {
            throw failure(.limitExceeded, "more than \(limits.maxMembers) \(items)")
        }
        skipWhitespace()
        guard index < bytes.count else { throw syntax("unterminated \(container)") }
        if bytes[index] == UInt8(ascii: ",") {
            index += 1
            return true
        }
        guard bytes[index] == close else { throw syntax("expected ',' or '\(Unicode.Scalar(close))'") }
        index += 1
        return false
    }

    /// Adds the container step `component` to the duplicates reported inside it.
    mutating func markDuplicates(from start: Int, inside component: JSONPath.Component) {
        for position in start..<duplicates.count { duplicates[position].components.append(component) }
    }

    /// RFC 8259 §6: `[ minus ] int [ frac ] [ exp ]`, `int = zero / ( digit1-9 *DIGIT )`.
    /// At most 64 characters, and finite as a `Double`.
    mutating func parseNumber() throws(JSONReader.Failure) -> JSONValue {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < bytes.count, Self.isDigit(bytes[index]) else { throw syntax("invalid number") }
        var integer: UInt64 = 0
        var digits = 0
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            digits = 1
        } else {
            while index < bytes.count, Self.isDigit(bytes[index]) {
                integer = integer &* 10 &+ UInt64(bytes[index] &- 0x30)
                digits += 1
                index += 1
            }
        }
        var integral = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw syntax("invalid number") }
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw syntax("invalid number") }
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
        guard index - start <= 64 else { throw syntax("number too long") }
        // Up to 15 digits an integer is exact as a Double: no text conversion needed.
        if integral && digits <= 15 {
            let magnitude = Double(integer)
            return .number(negative ? -magnitude : magnitude)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw syntax("number out of range") }
        return .number(value)
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
}

extension JSONReader.Failure {
    /// The failure, one container step further out.
    func inside(_ component: JSONPath.Component) -> Self {
        var copy = self
        copy.components.insert(component, at: 0)
        return copy
    }
}
