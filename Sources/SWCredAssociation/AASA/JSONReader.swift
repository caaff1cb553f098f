/// A strict RFC 8259 JSON reader over bytes, with a nesting-depth limit checked before each
/// descent, so that hostile input can neither trap nor exhaust the stack.
///
/// It reports duplicate object keys (AD-3.9) and rejects trailing data. Errors carry the byte
/// offset; callers map them to `NSCocoaErrorDomain` 3840 (AD-4.9).
public struct JSONReader: Sendable {
    /// A parse failure at a byte offset.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// Byte offset in the input where the problem was found.
        public var offset: Int
        /// What is wrong.
        public var message: String
        /// `message (at byte N)`.
        public var description: String { "\(message) (at byte \(offset))" }
    }

    /// A duplicate key found while reading: the JSON path of the object and the key.
    public struct DuplicateKey: Sendable, Hashable {
        /// The path of the object holding the duplicate (`applinks.details[0]`).
        public var path: String
        /// The repeated key.
        public var key: String
    }

    /// The deepest nesting of arrays and objects accepted. The default, 64, is far beyond any real
    /// association file and keeps the bounded recursion shallow.
    public var maximumDepth: Int

    /// Creates a reader.
    public init(maximumDepth: Int = 64) {
        self.maximumDepth = maximumDepth
    }

    /// Parses one JSON document.
    ///
    /// - Parameter bytes: UTF-8 JSON without a byte-order mark.
    /// - Returns: the value and the duplicate keys met.
    /// - Throws: ``Failure`` for invalid JSON, invalid UTF-8, too deep nesting or trailing data.
    public func parse(_ bytes: [UInt8]) throws(Failure) -> (value: JSONValue, duplicates: [DuplicateKey]) {
        var state = State(bytes: bytes, maximumDepth: maximumDepth)
        state.skipWhitespace()
        let value = try state.parseValue(depth: 0, path: "")
        state.skipWhitespace()
        guard state.index == bytes.count else { throw state.failure("unexpected data after the JSON value") }
        return (value, state.duplicates)
    }

    private struct State {
        let bytes: [UInt8]
        let maximumDepth: Int
        var index = 0
        var duplicates: [DuplicateKey] = []

        init(bytes: [UInt8], maximumDepth: Int) {
            self.bytes = bytes
            self.maximumDepth = maximumDepth
        }

        func failure(_ message: String) -> Failure { Failure(offset: index, message: message) }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func parseValue(depth: Int, path: String) throws(Failure) -> JSONValue {
            guard index < bytes.count else { throw failure("unexpected end of input") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try parseObject(depth: depth + 1, path: path)
            case UInt8(ascii: "["): return try parseArray(depth: depth + 1, path: path)
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
            case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
            case UInt8(ascii: "n"): try expectLiteral("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
            default: throw failure("invalid value")
            }
        }

        mutating func expectLiteral(_ literal: StaticString) throws(Failure) {
            let count = literal.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw failure("invalid literal") }
            let matches = literal.withUTF8Buffer { buffer in
                (0..<count).allSatisfy { bytes[index + $0] == buffer[$0] }
            }
            guard matches else { throw failure("invalid literal") }
            index += count
        }

        mutating func parseObject(depth: Int, path: String) throws(Failure) -> JSONValue {
            guard depth <= maximumDepth else { throw failure("nesting deeper than \(maximumDepth) levels") }
            index += 1  // {
            var members: [JSONObject.Member] = []
            var seen = Set<String>()
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(JSONObject(members))
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw failure("expected a string key")
                }
                let key = try parseString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
                index += 1
                skipWhitespace()
                let value = try parseValue(depth: depth, path: JSONPath.child(path, key))
                if !seen.insert(key).inserted { duplicates.append(DuplicateKey(path: path, key: key)) }
                members.append(.init(key: key, value: value))
                skipWhitespace()
                guard index < bytes.count else { throw failure("unterminated object") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "}") else { throw failure("expected ',' or '}'") }
                index += 1
                return .object(JSONObject(members))
            }
        }

        mutating func parseArray(depth: Int, path: String) throws(Failure) -> JSONValue {
            guard depth <= maximumDepth else { throw failure("nesting deeper than \(maximumDepth) levels") }
            index += 1  // [
            var elements: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try parseValue(depth: depth, path: "\(path)[\(elements.count)]"))
                skipWhitespace()
                guard index < bytes.count else { throw failure("unterminated array") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "]") else { throw failure("expected ',' or ']'") }
                index += 1
                return .array(elements)
            }
        }

        mutating func parseString() throws(Failure) -> String {
            index += 1  // opening quote
            var buffer: [UInt8] = []
            while true {
                guard index < bytes.count else { throw failure("unterminated string") }
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    guard let string = String(validating: buffer, as: UTF8.self) else {
                        throw failure("string is not valid UTF-8")
                    }
                    return string
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < bytes.count else { throw failure("unterminated escape") }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""): buffer.append(0x22)
                    case UInt8(ascii: "\\"): buffer.append(0x5C)
                    case UInt8(ascii: "/"): buffer.append(0x2F)
                    case UInt8(ascii: "b"): buffer.append(0x08)
                    case UInt8(ascii: "f"): buffer.append(0x0C)
                    case UInt8(ascii: "n"): buffer.append(0x0A)
                    case UInt8(ascii: "r"): buffer.append(0x0D)
                    case UInt8(ascii: "t"): buffer.append(0x09)
                    case UInt8(ascii: "u"):
                        var code = try parseHex4()
                        if (0xD800...0xDBFF).contains(code) {
                            // A high surrogate must be followed by \u and a low surrogate.
                            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                                bytes[index + 1] == UInt8(ascii: "u")
                            else { throw failure("unpaired surrogate") }
                            index += 2
                            let low = try parseHex4()
                            guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired surrogate") }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else if (0xDC00...0xDFFF).contains(code) {
                            throw failure("unpaired surrogate")
                        }
                        guard let scalar = Unicode.Scalar(code) else { throw failure("invalid escape") }
                        buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default:
                        throw failure("invalid escape")
                    }
                case 0x00..<0x20:
                    throw failure("control character in string")
                default:
                    buffer.append(byte)
                    index += 1
                }
            }
        }

        mutating func parseHex4() throws(Failure) -> UInt32 {
            guard index + 4 <= bytes.count else { throw failure("invalid \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw failure("invalid \\u escape")
                }
                value = value << 4 | digit
                index += 1
            }
            return value
        }

        mutating func parseNumber() throws(Failure) -> JSONValue {
            let start = index
            func isDigit(_ i: Int) -> Bool { i < bytes.count && (0x30...0x39).contains(bytes[i]) }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { throw failure("invalid number") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                while isDigit(index) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard isDigit(index) else { throw failure("invalid number") }
                while isDigit(index) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard isDigit(index) else { throw failure("invalid number") }
                while isDigit(index) { index += 1 }
            }
            guard index - start <= 64 else { throw failure("number too long") }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard let value = Double(text), value.isFinite else { throw failure("number out of range") }
            return .number(value)
        }
    }
}

/// Builds the JSON paths used in lint findings and diagnostics (`applinks.details[0].components[2]`).
public enum JSONPath {
    /// `parent.key`, or `parent["key"]` when the key is not a plain identifier.
    public static func child(_ parent: String, _ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
            }
        if plain { return parent.isEmpty ? key : "\(parent).\(key)" }
        var escaped = ""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\(parent)[\"\(escaped)\"]"
    }

    /// `parent[index]`.
    public static func element(_ parent: String, _ index: Int) -> String { "\(parent)[\(index)]" }
}
