/// The state of one ``XMLElementReader/read(_:what:limits:)``: an index into the bytes and a stack
/// of open elements. Every `bytes[index]` read is behind an `index < bytes.count` check.
struct XMLElementScanner {
    let bytes: [UInt8]
    let what: String
    let limits: XMLElementReader.Limits
    var index = 0
    var elements = 0

    init(bytes: [UInt8], what: String, limits: XMLElementReader.Limits) {
        self.bytes = bytes
        self.what = what
        self.limits = limits
    }

    func fail(_ message: String) -> SWCredError {
        SWCredError(.malformedInput, "\(what) is not well-formed XML at byte \(index): \(message)")
    }

    func starts(with literal: String) -> Bool {
        let utf8 = Array(literal.utf8)
        return index + utf8.count <= bytes.count && Array(bytes[index..<(index + utf8.count)]) == utf8
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"),
            UInt8(ascii: "."), 0x80...0xFF:
            true
        default: false
        }
    }

    mutating func skipSpace() { while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 } }

    /// Moves past the next `terminator`, or fails with `message`.
    mutating func skip(past terminator: String, _ message: String) throws(SWCredError) {
        let end = Array(terminator.utf8)
        while index + end.count <= bytes.count {
            if bytes[index] == end[0], Array(bytes[index..<(index + end.count)]) == end {
                index += end.count
                return
            }
            index += 1
        }
        throw fail(message)
    }

    mutating func document() throws(SWCredError) -> MarkupElement {
        guard bytes.count <= limits.maximumBytes else {
            throw SWCredError(
                .malformedInput, "\(what) is \(bytes.count) bytes; the limit is \(limits.maximumBytes)")
        }
        if bytes.starts(with: [0x03, 0x00, 0x08, 0x00]) {
            throw SWCredError(
                .malformedInput,
                "\(what) is compiled binary XML (from an APK); give the source file, or the text "
                    + "`aapt2 dump xmltree` prints is not read either")
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        guard String(validating: bytes[index...], as: UTF8.self) != nil else { throw fail("not UTF-8") }
        // The prolog: declaration, comments, processing instructions; a DOCTYPE is refused.
        while true {
            skipSpace()
            if starts(with: "<?") {
                try skip(past: "?>", "an unterminated processing instruction")
            } else if starts(with: "<!--") {
                try skip(past: "-->", "an unterminated comment")
            } else if starts(with: "<!") {
                throw fail("a DOCTYPE or other declaration; Android resources have none")
            } else {
                break
            }
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "<") else { throw fail("no root element") }
        let root = try elementTree()
        // Trailing misc.
        while true {
            skipSpace()
            if index >= bytes.count { return root }
            if starts(with: "<!--") {
                try skip(past: "-->", "an unterminated comment")
            } else if starts(with: "<?") {
                try skip(past: "?>", "an unterminated processing instruction")
            } else {
                throw fail("content after the root element")
            }
        }
    }

    /// Reads one element and everything inside it with an explicit stack (no recursion).
    mutating func elementTree() throws(SWCredError) -> MarkupElement {
        var stack: [MarkupElement] = []
        var text: [[UInt8]] = []
        while true {
            guard index < bytes.count else { throw fail("the document ends inside <\(stack.last?.name ?? "")>") }
            if bytes[index] == UInt8(ascii: "<") {
                if starts(with: "</") {
                    index += 2
                    let name = try self.name()
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { throw fail("a bad end tag") }
                    index += 1
                    guard var element = stack.popLast(), let body = text.popLast() else {
                        throw fail("an end tag </\(name)> without a start tag")
                    }
                    guard element.name == name else {
                        throw fail("</\(name)> closes <\(element.name)>")
                    }
                    element.text = String(decoding: body, as: UTF8.self)
                    if stack.isEmpty { return element }
                    stack[stack.count - 1].children.append(element)
                } else if starts(with: "<!--") {
                    try skip(past: "-->", "an unterminated comment")
                } else if starts(with: "<![CDATA[") {
                    guard !stack.isEmpty else { throw fail("CDATA outside the root element") }
                    index += 9
                    let start = index
                    try skip(past: "]]>", "an unterminated CDATA section")
                    text[text.count - 1] += bytes[start..<(index - 3)]
                } else if starts(with: "<?") {
                    try skip(past: "?>", "an unterminated processing instruction")
                } else if starts(with: "<!") {
                    throw fail("a declaration inside an element")
                } else {
                    index += 1
                    let (element, isEmpty) = try startTag()
                    elements += 1
                    guard elements <= limits.maximumElements else {
                        throw fail("more than \(limits.maximumElements) elements")
                    }
                    if isEmpty {
                        if stack.isEmpty { return element }
                        stack[stack.count - 1].children.append(element)
                    } else {
                        guard stack.count < limits.maximumDepth else {
                            throw fail("elements nested deeper than \(limits.maximumDepth)")
                        }
                        stack.append(element)
                        text.append([])
                    }
                }
            } else {
                guard !stack.isEmpty else { throw fail("text outside the root element") }
                if bytes[index] == UInt8(ascii: "&") {
                    try reference(into: &text[text.count - 1])
                } else {
                    text[text.count - 1].append(bytes[index])
                    index += 1
                }
            }
        }
    }

    mutating func name() throws(SWCredError) -> String {
        let start = index
        while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
        guard index > start, index - start <= 1_024 else { throw fail("a missing or over-long name") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// After `<`: the name, the attributes, and `>` or `/>`.
    mutating func startTag() throws(SWCredError) -> (MarkupElement, isEmpty: Bool) {
        var element = MarkupElement(name: try name(), attributes: [], children: [], text: "")
        while true {
            let hadSpace = index < bytes.count && Self.isSpace(bytes[index])
            skipSpace()
            guard index < bytes.count else { throw fail("the document ends in <\(element.name)>") }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                return (element, false)
            }
            if starts(with: "/>") {
                index += 2
                return (element, true)
            }
            guard hadSpace else { throw fail("attributes of <\(element.name)> must be separated by white space") }
            let attribute = try name()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw fail("\(attribute) has no value")
            }
            index += 1
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw fail("the value of \(attribute) is not quoted")
            }
            let quote = bytes[index]
            index += 1
            var value: [UInt8] = []
            while true {
                guard index < bytes.count else { throw fail("an unterminated value of \(attribute)") }
                let byte = bytes[index]
                if byte == quote { break }
                if byte == UInt8(ascii: "<") { throw fail("'<' in the value of \(attribute)") }
                if byte == UInt8(ascii: "&") {
                    try reference(into: &value)
                } else {
                    // XML 1.0 §3.3.3: white space characters in a value become spaces.
                    value.append(Self.isSpace(byte) ? 0x20 : byte)
                    index += 1
                }
            }
            index += 1
            guard element[attribute: attribute] == nil else {
                throw fail("<\(element.name)> has \(attribute) twice")
            }
            guard element.attributes.count < limits.maximumAttributes else {
                throw fail("<\(element.name)> has more than \(limits.maximumAttributes) attributes")
            }
            element.attributes.append(.init(name: attribute, value: String(decoding: value, as: UTF8.self)))
        }
    }

    /// `&lt; &gt; &amp; &quot; &apos;`, `&#N;`, `&#xH;`; any other entity is refused.
    mutating func reference(into buffer: inout [UInt8]) throws(SWCredError) {
        index += 1  // &
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: ";"), index - start <= 10 { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else {
            throw fail("an unterminated entity or character reference")
        }
        let body = Array(bytes[start..<index])
        index += 1
        switch String(decoding: body, as: UTF8.self) {
        case "lt": buffer.append(UInt8(ascii: "<"))
        case "gt": buffer.append(UInt8(ascii: ">"))
        case "amp": buffer.append(UInt8(ascii: "&"))
        case "quot": buffer.append(UInt8(ascii: "\""))
        case "apos": buffer.append(UInt8(ascii: "'"))
        default:
            guard body.first == UInt8(ascii: "#"),
                let value = XMLPropertyListParser.characterReference(body.dropFirst()),
                let scalar = XMLPropertyListParser.xmlCharacter(value)
            else { throw fail("an entity other than &lt; &gt; &amp; &quot; &apos; or a character reference") }
            UTF8.encode(scalar) { buffer.append($0) }
        }
    }
}
