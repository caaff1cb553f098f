extension XMLPropertyListParser {
    /// XML 1.0 §2.3: `S ::= (#x20 | #x9 | #xD | #xA)+`.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Whether the input at `index` starts with `literal` (ASCII).
    func starts(with literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        let start = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] { return false }
        return true
    }

    mutating func skipWhitespace() {
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
    }

    /// Moves past `terminator`, or fails with `message` at the end of input.
    mutating func skip(past terminator: StaticString, _ message: String) throws(Failure) {
        while index < bytes.count {
            if starts(with: terminator) {
                index += terminator.utf8CodeUnitCount
                return
            }
            index += 1
        }
        throw syntax(message)
    }

    /// XML 1.0 §2.5: `<!-- … -->`.
    mutating func skipComment() throws(Failure) {
        index += 4
        try skip(past: "-->", "unterminated comment")
    }

    /// Misc between elements (§2.8): white space and comments. A processing instruction is
    /// refused by name.
    mutating func skipMisc() throws(Failure) {
        while true {
            skipWhitespace()
            if starts(with: "<!--") {
                try skipComment()
            } else if starts(with: "<?") {
                throw failure(.unsupported, "a processing instruction")
            } else if index < bytes.count, bytes[index] != UInt8(ascii: "<") {
                throw syntax("text between elements")
            } else {
                return
            }
        }
    }

    /// XML 1.0 §2.3 `Name`, restricted to ASCII (every plist name is).
    mutating func name() throws(Failure) -> String {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            let isStart =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: ":")
            let isOther =
                (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
            guard isStart || (isOther && index > start) else { break }
            index += 1
            guard index - start <= 64 else { throw syntax("a name longer than 64 characters") }
        }
        guard index > start else { throw syntax("expected a name") }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    /// XML 1.0 §3.1 `Attribute ::= Name Eq AttValue`; the value is returned raw (plist readers
    /// never use an attribute's entities).
    mutating func attribute() throws(Failure) -> (name: String, value: String) {
        let name = try name()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { throw syntax("expected '=' after \(name)") }
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw syntax("expected a quoted attribute value")
        }
        let quote = bytes[index]
        index += 1
        let start = index
        while index < bytes.count, bytes[index] != quote {
            guard bytes[index] != UInt8(ascii: "<") else { throw syntax("'<' in an attribute value") }
            index += 1
        }
        guard index < bytes.count else { throw syntax("unterminated attribute value") }
        let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        index += 1
        return (name, value)
    }

    /// XML 1.0 §3.1: `'<' Name (S Attribute)* S? ('>' | '/>')`, from its `<`.
    mutating func startTag() throws(Failure) -> StartTag {
        let offset = index
        index += 1  // <
        let name = try name()
        var attributes: Set<String> = []
        while true {
            let spaced = index < bytes.count && Self.isWhitespace(bytes[index])
            skipWhitespace()
            guard index < bytes.count else { throw syntax("unterminated <\(name)> tag") }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                return StartTag(name: name, hasAttributes: !attributes.isEmpty, isEmpty: false, offset: offset)
            }
            if starts(with: "/>") {
                index += 2
                return StartTag(name: name, hasAttributes: !attributes.isEmpty, isEmpty: true, offset: offset)
            }
            guard spaced else { throw syntax("expected white space, '>' or '/>' in <\(name)>") }
            let attribute = try attribute()
            guard attributes.insert(attribute.name).inserted else { throw syntax("a repeated attribute in <\(name)>") }
        }
    }

    /// XML 1.0 §3.1: `'</' Name S? '>'`, which must close `expected`.
    mutating func endTag(_ expected: String) throws(Failure) {
        index += 2  // </
        let name = try name()
        guard name == expected else { throw syntax("</\(name)> closes <\(expected)>") }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
            throw syntax("unterminated </\(name)> tag")
        }
        index += 1
    }

    /// The character data of a leaf element up to its end tag: text with entities and character
    /// references expanded, CDATA sections, comments skipped, line ends normalised (§2.11). An
    /// element inside is refused. More than `limit` bytes fails.
    mutating func text(_ tag: StartTag, limit: Int) throws(Failure) -> String {
        if tag.isEmpty { return "" }
        var buffer: [UInt8] = []
        while true {
            guard buffer.count <= limit else {
                throw failure(.limitExceeded, "<\(tag.name)> holds more than \(limit) bytes")
            }
            guard index < bytes.count else { throw syntax("unterminated <\(tag.name)>") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "<"):
                if starts(with: "</") {
                    try endTag(tag.name)
                    // The whole input is valid UTF-8 and every expansion appends whole scalars.
                    guard let string = String(validating: buffer, as: UTF8.self) else {
                        throw failure(.encoding, "<\(tag.name)> is not valid UTF-8")
                    }
                    return string
                } else if starts(with: "<!--") {
                    try skipComment()
                } else if starts(with: "<![CDATA[") {
                    index += 9
                    let start = index
                    try skip(past: "]]>", "unterminated CDATA section")
                    try appendText(UnsafeBufferPointer(rebasing: bytes[start..<(index - 3)]), to: &buffer)
                } else if starts(with: "<?") {
                    throw failure(.unsupported, "a processing instruction")
                } else {
                    throw syntax("an element inside <\(tag.name)>")
                }
            case UInt8(ascii: "&"):
                try reference(into: &buffer)
            default:
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "<"), bytes[index] != UInt8(ascii: "&") {
                    // §2.4: character data does not hold the CDATA end, `]]>`.
                    if bytes[index] == UInt8(ascii: ">"), index - start >= 2, bytes[index - 1] == UInt8(ascii: "]"),
                        bytes[index - 2] == UInt8(ascii: "]")
                    {
                        throw syntax("']]>' in text")
                    }
                    index += 1
                }
                try appendText(UnsafeBufferPointer(rebasing: bytes[start..<index]), to: &buffer)
            }
        }
    }

    /// Appends literal text, turning CR LF and lone CR into LF (§2.11). (The control characters
    /// §2.2 excludes were refused over the whole input; the check here keeps this function safe
    /// on its own.)
    func appendText(_ text: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) throws(Failure) {
        var previousCR = false
        for byte in text {
            if byte == 0x0D {
                buffer.append(0x0A)
                previousCR = true
                continue
            }
            defer { previousCR = false }
            if byte == 0x0A && previousCR { continue }
            guard byte >= 0x20 || byte == 0x09 || byte == 0x0A else {
                throw failure(.encoding, "a control character XML does not allow")
            }
            buffer.append(byte)
        }
    }

    /// XML 1.0 §4.1 and §4.6: `&lt; &gt; &amp; &quot; &apos;`, `&#N;` and `&#xH;` naming a
    /// character XML allows. Other entities are refused (no DTD declares any).
    mutating func reference(into buffer: inout [UInt8]) throws(Failure) {
        let start = index
        index += 1  // &
        var body: [UInt8] = []
        while index < bytes.count, bytes[index] != UInt8(ascii: ";") {
            body.append(bytes[index])
            index += 1
            guard body.count <= 10 else {
                index = start
                throw syntax("an unterminated entity or character reference")
            }
        }
        guard index < bytes.count else {
            index = start
            throw syntax("an unterminated entity or character reference")
        }
        index += 1  // ;
        switch body {
        case Array("lt".utf8): buffer.append(UInt8(ascii: "<"))
        case Array("gt".utf8): buffer.append(UInt8(ascii: ">"))
        case Array("amp".utf8): buffer.append(UInt8(ascii: "&"))
        case Array("quot".utf8): buffer.append(UInt8(ascii: "\""))
        case Array("apos".utf8): buffer.append(UInt8(ascii: "'"))
        default:
            guard body.first == UInt8(ascii: "#") else {
                index = start
                throw failure(.unsupported, "an entity other than &lt; &gt; &amp; &quot; &apos;")
            }
            guard let value = Self.characterReference(body.dropFirst()) else {
                index = start
                throw syntax("a character reference that is not &#N; or &#xH;")
            }
            guard let scalar = Self.xmlCharacter(value) else {
                index = start
                throw failure(.encoding, "a character reference to a character XML does not allow")
            }
            var utf8: [UInt8] = []
            UTF8.encode(scalar) { utf8.append($0) }
            buffer += utf8
        }
    }

    /// The value of `N` or `xH` in `&#…;` (at most 8 digits), or nil when that is not a number.
    static func characterReference(_ digits: ArraySlice<UInt8>) -> UInt32? {
        var radix: UInt32 = 10
        var digits = digits
        if digits.first == UInt8(ascii: "x") {
            radix = 16
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.count <= 8 else { return nil }
        var value: UInt32 = 0
        for byte in digits {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value * radix + digit  // at most 8 digits: no overflow
        }
        return value
    }

    /// `value` as a scalar when XML 1.0 §2.2 `Char` allows it, else nil.
    static func xmlCharacter(_ value: UInt32) -> Unicode.Scalar? {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return Unicode.Scalar(value)
        default: return nil
        }
    }
}
