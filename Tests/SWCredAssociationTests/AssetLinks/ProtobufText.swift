/// A test-only reader of the protobuf text format, as far as Google's Digital Asset Links
/// compatibility suite uses it: `#` comments, `name: value` and `name { … }` fields, strings in
/// single or double quotes (adjacent ones joined, `\` escapes), identifiers (`SUCCESS`, `true`)
/// and `[a, b]` lists. Not a general parser: anything else is an error.
struct ProtobufText {
    /// A value of a field.
    indirect enum Value {
        case string(String)
        case identifier(String)
        case message(Message)
        case list([Value])
    }

    /// A message: its fields in order, repeated fields repeated.
    struct Message {
        var fields: [(name: String, value: Value)] = []

        /// Every value of `name`.
        func all(_ name: String) -> [Value] { fields.filter { $0.name == name }.map(\.value) }
        /// The message `name`, when present.
        func message(_ name: String) -> Message? {
            for case .message(let message) in all(name) { return message }
            return nil
        }
        /// The string `name`, when present.
        func string(_ name: String) -> String? {
            for case .string(let text) in all(name) { return text }
            return nil
        }
        /// The identifier `name` (an enum value or a Boolean), when present.
        func identifier(_ name: String) -> String? {
            for case .identifier(let text) in all(name) { return text }
            return nil
        }
        /// The messages of the repeated field `name`.
        func messages(_ name: String) -> [Message] {
            all(name).compactMap { if case .message(let message) = $0 { message } else { nil } }
        }
        /// The identifiers of a repeated field written as `name: [A, B]` or repeated.
        func identifiers(_ name: String) -> [String] {
            all(name).flatMap { value -> [String] in
                switch value {
                case .identifier(let text): [text]
                case .list(let items): items.compactMap { if case .identifier(let text) = $0 { text } else { nil } }
                default: []
                }
            }
        }
    }

    struct SyntaxError: Error, CustomStringConvertible {
        var offset: Int
        var description: String { "protobuf text syntax error at byte \(offset)" }
    }

    private let bytes: [UInt8]
    private var index = 0

    /// Parses a whole file as one message.
    static func parse(_ text: String) throws -> Message {
        var parser = ProtobufText(bytes: Array(text.utf8))
        let message = try parser.fields(until: nil)
        return message
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func skipBlanks() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            case UInt8(ascii: "#"):
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            default: return
            }
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }

    private mutating func name() throws -> String {
        let start = index
        while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
        guard index > start else { throw SyntaxError(offset: index) }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func fields(until close: UInt8?) throws -> Message {
        var message = Message()
        while true {
            skipBlanks()
            if index >= bytes.count {
                guard close == nil else { throw SyntaxError(offset: index) }
                return message
            }
            if let close, bytes[index] == close {
                index += 1
                return message
            }
            let field = try name()
            skipBlanks()
            if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                index += 1
                skipBlanks()
            }
            message.fields.append((field, try value()))
            skipBlanks()
            if index < bytes.count, bytes[index] == UInt8(ascii: ",") || bytes[index] == UInt8(ascii: ";") {
                index += 1
            }
        }
    }

    private mutating func value() throws -> Value {
        guard index < bytes.count else { throw SyntaxError(offset: index) }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            return .message(try fields(until: UInt8(ascii: "}")))
        case UInt8(ascii: "<"):
            index += 1
            return .message(try fields(until: UInt8(ascii: ">")))
        case UInt8(ascii: "["):
            index += 1
            var items: [Value] = []
            while true {
                skipBlanks()
                guard index < bytes.count else { throw SyntaxError(offset: index) }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .list(items)
                }
                items.append(try value())
                skipBlanks()
                if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index += 1 }
            }
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            var text: [UInt8] = []
            // Adjacent literals are one string.
            while index < bytes.count, bytes[index] == UInt8(ascii: "'") || bytes[index] == UInt8(ascii: "\"") {
                text += try quoted()
                skipBlanks()
            }
            return .string(String(decoding: text, as: UTF8.self))
        default:
            return .identifier(try name())
        }
    }

    private mutating func quoted() throws -> [UInt8] {
        let quote = bytes[index]
        index += 1
        var out: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == quote { return out }
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                continue
            }
            guard index < bytes.count else { break }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            default: out.append(escaped)
            }
        }
        throw SyntaxError(offset: index)
    }
}
