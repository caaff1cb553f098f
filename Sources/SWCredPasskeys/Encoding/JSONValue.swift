public import SWCredCore

/// A JSON value read under limits, for the WebAuthn option forms.
///
/// ``parse(_:limits:)`` is a strict RFC 8259 reader: one value, no trailing data, no comments,
/// UTF-8 only, duplicate object keys refused (WebAuthn option forms never repeat a member, and a
/// repeated one would let two readers disagree). It never traps: every input gives a value or a
/// `malformedInput` error (exit 65); the size, depth, string and member limits hold whatever the input.
public indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The reader's limits.
    public struct Limits: Sendable, Hashable {
        /// Input bytes. Default 64 KiB (an options document with 64 excluded credentials of
        /// 1023 bytes each fits).
        public var maxBytes = 64 * 1024
        /// Nesting of arrays and objects. Default 16 (the option forms need 4).
        public var maxDepth = 16
        /// Members of one object or elements of one array. Default 256.
        public var maxElements = 256
        /// Bytes of one string, after unescaping. Default 8 KiB.
        public var maxStringBytes = 8 * 1024
        /// The defaults.
        public static let `default` = Limits()
        /// Creates the defaults.
        public init() {}
    }

    /// Parses one JSON document.
    /// - Throws: `malformedInput` with the byte offset of the problem.
    public static func parse(_ bytes: [UInt8], limits: Limits = .default) throws(SWCredError) -> JSONValue {
        guard bytes.count <= limits.maxBytes else {
            throw SWCredError(.malformedInput, "the options JSON is \(bytes.count) bytes; the limit is \(limits.maxBytes)")
        }
        var parser = Parser(bytes: bytes, limits: limits)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.offset == bytes.count else { throw parser.fail("trailing data after the JSON value") }
        return value
    }

    /// The members of an object, or `nil`.
    public var object: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }
    /// The elements of an array, or `nil`.
    public var array: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    /// The string, or `nil`.
    public var string: String? { if case .string(let s) = self { s } else { nil } }
    /// The number, or `nil`.
    public var number: Double? { if case .number(let n) = self { n } else { nil } }
    /// The Boolean, or `nil`.
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
}

private struct Parser {
    let bytes: [UInt8]
    let limits: JSONValue.Limits
    var offset = 0

    init(bytes: [UInt8], limits: JSONValue.Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    func fail(_ message: String) -> SWCredError {
        SWCredError(.malformedInput, "malformed options JSON at byte \(offset): \(message)")
    }

    mutating func skipWhitespace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    mutating func expect(_ literal: String) throws(SWCredError) {
        for byte in literal.utf8 {
            guard offset < bytes.count, bytes[offset] == byte else { throw fail("expected \(literal)") }
            offset += 1
        }
    }

    mutating func value(depth: Int) throws(SWCredError) -> JSONValue {
        guard offset < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try expect("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expect("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail("unexpected character")
        }
    }

    mutating func object(depth: Int) throws(SWCredError) -> JSONValue {
        guard depth <= limits.maxDepth else { throw fail("nesting deeper than \(limits.maxDepth)") }
        offset += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            let key = try string()
            skipWhitespace()
            try expect(":")
            skipWhitespace()
            let member = try value(depth: depth)
            guard members.updateValue(member, forKey: key) == nil else { throw fail("the member \"\(key.prefix(64))\" repeats") }
            guard members.count <= limits.maxElements else { throw fail("more than \(limits.maxElements) members") }
            skipWhitespace()
            guard offset < bytes.count else { throw fail("unexpected end of input") }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
                continue
            }
            try expect("}")
            return .object(members)
        }
    }

    mutating func array(depth: Int) throws(SWCredError) -> JSONValue {
        guard depth <= limits.maxDepth else { throw fail("nesting deeper than \(limits.maxDepth)") }
        offset += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth))
            guard elements.count <= limits.maxElements else { throw fail("more than \(limits.maxElements) elements") }
            skipWhitespace()
            guard offset < bytes.count else { throw fail("unexpected end of input") }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
                continue
            }
            try expect("]")
            return .array(elements)
        }
    }

    mutating func number() throws(SWCredError) -> Double {
        let start = offset
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        func digits(_ p: inout Parser) -> Int {
            let s = p.offset
            while p.offset < p.bytes.count, p.bytes[p.offset] >= 0x30, p.bytes[p.offset] <= 0x39 { p.offset += 1 }
            return p.offset - s
        }
        guard offset < bytes.count else { throw fail("a number ends early") }
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
        } else if digits(&self) == 0 {
            throw fail("a number needs digits")
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard digits(&self) > 0 else { throw fail("a fraction needs digits") }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            guard digits(&self) > 0 else { throw fail("an exponent needs digits") }
        }
        guard offset - start <= 64, let value = Double(String(decoding: bytes[start..<offset], as: UTF8.self)),
            value.isFinite
        else { throw fail("a number out of range") }
        return value
    }

    mutating func string() throws(SWCredError) -> String {
        offset += 1  // opening quote
        var out: [UInt8] = []
        while true {
            guard offset < bytes.count else { throw fail("a string is not closed") }
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: out, as: UTF8.self) else { throw fail("a string is not valid UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                guard offset < bytes.count else { throw fail("an escape ends early") }
                let escape = bytes[offset]
                offset += 1
                switch escape {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        try expect("\\u")
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("an unpaired surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw fail("an unpaired surrogate")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw fail("a bad \\u escape") }
                    out.append(contentsOf: Array(String(Character(unicode)).utf8))
                default: throw fail("an unknown escape")
                }
            case 0x00..<0x20: throw fail("a control character in a string")
            default: out.append(byte)
            }
            guard out.count <= limits.maxStringBytes else { throw fail("a string longer than \(limits.maxStringBytes) bytes") }
        }
    }

    mutating func hex4() throws(SWCredError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw fail("a \\u escape ends early") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            offset += 1
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw fail("a bad hex digit")
            }
            value = value << 4 | digit
        }
        return value
    }
}
