/// The work of ``PropertyListReader`` on an XML plist (plist 1.0 DTD), over one borrowed buffer.
///
/// A recursive-descent reader of the XML subset Apple's writers produce: the prolog (an
/// `<?xml?>` declaration, comments, one `<!DOCTYPE>` without an internal subset), the `<plist>`
/// element holding one value, and the DTD's value elements. Every read of `bytes[index]` is
/// preceded by an `index < bytes.count` check.
struct XMLPropertyListParser {
    typealias Failure = PropertyListReader.Failure

    /// A start tag read: its name, whether it had attributes, whether it was `<name/>`, and
    /// where it began.
    struct StartTag {
        var name: String
        var hasAttributes: Bool
        var isEmpty: Bool
        var offset: Int
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let limits: PropertyListReader.Limits
    var index = 0
    /// Values read so far against ``PropertyListReader/Limits/maxValues``.
    var values = 0

    init(bytes: UnsafeBufferPointer<UInt8>, limits: PropertyListReader.Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    func failure(_ kind: Failure.Kind, _ message: String) -> Failure {
        Failure(kind: kind, offset: index, message: message)
    }

    func syntax(_ message: String) -> Failure { failure(.syntax, message) }

    /// Reads the document: encoding checks, prolog, `<plist>`, trailing misc.
    mutating func document() throws(Failure) -> PropertyListValue {
        // Step 1 (XML 1.0 §4.3.3, appendix F): the encoding. UTF-8 only; a UTF-8 byte-order mark
        // is skipped, a UTF-16 or UTF-32 one (or the zero bytes of an unmarked one) refused.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
        } else if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE])
            || bytes.starts(with: [0x00]) || (bytes.count > 1 && bytes[1] == 0x00)
        {
            throw failure(.unsupported, "the XML property list is UTF-16 or UTF-32; only UTF-8 is read")
        }
        guard String(validating: UnsafeBufferPointer(rebasing: bytes[index...]), as: UTF8.self) != nil else {
            throw failure(.encoding, "the XML property list is not valid UTF-8")
        }
        try checkCharacters()
        // Step 2 (§2.8): the XML declaration, only at the very start.
        if starts(with: "<?xml"), index + 5 < bytes.count, Self.isWhitespace(bytes[index + 5]) {
            try xmlDeclaration()
        }
        // Step 3: the prolog's misc (comments, white space) and at most one DOCTYPE.
        var sawDoctype = false
        while true {
            skipWhitespace()
            if starts(with: "<!--") {
                try skipComment()
            } else if starts(with: "<!DOCTYPE") {
                guard !sawDoctype else { throw syntax("a second <!DOCTYPE>") }
                sawDoctype = true
                try doctype()
            } else {
                break
            }
        }
        // Step 4: the root element, <plist>, holding exactly one value.
        guard index < bytes.count else { throw syntax("no <plist> element") }
        guard !starts(with: "<?") else { throw failure(.unsupported, "a processing instruction") }
        guard bytes[index] == UInt8(ascii: "<") else { throw syntax("expected '<'") }
        let root = try startTag()
        guard root.name == "plist" else {
            throw syntax("the root element is <\(root.name.prefix(32))>, not <plist>")
        }
        guard !root.isEmpty else { throw syntax("<plist> holds no value") }
        try skipMisc()
        guard index < bytes.count, !starts(with: "</") else { throw syntax("<plist> holds no value") }
        let value = try value(depth: 0)
        try skipMisc()
        guard starts(with: "</") else { throw syntax("<plist> holds more than one value") }
        try endTag("plist")
        // Step 5 (§2.1): after the root, only misc.
        try skipMisc()
        guard index == bytes.count else { throw syntax("unexpected data after </plist>") }
        return value
    }

    /// One value element, from its `<`.
    mutating func value(depth: Int) throws(Failure) -> PropertyListValue {
        guard bytes[index] == UInt8(ascii: "<") else { throw syntax("text where a value element belongs") }
        if starts(with: "<![CDATA[") { throw syntax("CDATA where a value element belongs") }
        if starts(with: "<?") { throw failure(.unsupported, "a processing instruction") }
        guard values < limits.maxValues else {
            throw failure(.limitExceeded, "more than \(limits.maxValues) values")
        }
        values += 1
        let tag = try startTag()
        if tag.hasAttributes { throw syntax("attributes on <\(tag.name)>") }
        switch tag.name {
        case "dict": return try dictionary(tag, depth: depth + 1)
        case "array": return try array(tag, depth: depth + 1)
        case "string": return .string(try text(tag, limit: limits.maxStringBytes))
        case "integer": return try integer(try text(tag, limit: 128))
        case "real": return try real(try text(tag, limit: 128))
        case "date": return try date(try text(tag, limit: 128))
        case "data": return .data(try base64(try text(tag, limit: limits.maxBytes)))
        case "true", "false":
            if !tag.isEmpty {
                try skipMisc()
                guard starts(with: "</") else { throw syntax("unterminated <\(tag.name)>") }
                try endTag(tag.name)
            }
            return .bool(tag.name == "true")
        case "key": throw syntax("a <key> outside a <dict>")
        case "plist": throw syntax("a <plist> inside <plist>")
        default: throw failure(.unsupported, "the element <\(tag.name.prefix(32))> is not in the plist DTD")
        }
    }

    /// `<array>`: values separated by misc.
    mutating func array(_ tag: StartTag, depth: Int) throws(Failure) -> PropertyListValue {
        guard depth <= limits.maxDepth else {
            throw failure(.limitExceeded, "nesting deeper than \(limits.maxDepth) levels")
        }
        var elements: [PropertyListValue] = []
        if tag.isEmpty { return .array(elements) }
        while true {
            try skipMisc()
            guard index < bytes.count else { throw syntax("unterminated <array>") }
            if starts(with: "</") {
                try endTag("array")
                return .array(elements)
            }
            guard elements.count < limits.maxElements else {
                throw failure(.limitExceeded, "an array of more than \(limits.maxElements) elements")
            }
            elements.append(try value(depth: depth))
        }
    }

    /// `<dict>`: `<key>` and value pairs separated by misc, keys distinct.
    mutating func dictionary(_ tag: StartTag, depth: Int) throws(Failure) -> PropertyListValue {
        guard depth <= limits.maxDepth else {
            throw failure(.limitExceeded, "nesting deeper than \(limits.maxDepth) levels")
        }
        var entries: [PropertyListDictionary.Entry] = []
        if tag.isEmpty { return .dictionary(PropertyListDictionary(entries)) }
        var seen = Set<String>()
        while true {
            try skipMisc()
            guard index < bytes.count else { throw syntax("unterminated <dict>") }
            if starts(with: "</") {
                try endTag("dict")
                return .dictionary(PropertyListDictionary(entries))
            }
            guard entries.count < limits.maxElements else {
                throw failure(.limitExceeded, "a dictionary of more than \(limits.maxElements) entries")
            }
            guard bytes[index] == UInt8(ascii: "<"), !starts(with: "<![CDATA["), !starts(with: "<?") else {
                throw syntax("expected <key> in <dict>")
            }
            let keyAt = index
            let keyTag = try startTag()
            guard keyTag.name == "key" else {
                throw syntax("expected <key> in <dict>, found <\(keyTag.name.prefix(32))>")
            }
            if keyTag.hasAttributes { throw syntax("attributes on <key>") }
            let key = try text(keyTag, limit: limits.maxStringBytes)
            guard seen.insert(key).inserted else {
                throw Failure(kind: .duplicateKey(key), offset: keyAt, message: "duplicate key \"\(key.prefix(64))\"")
            }
            try skipMisc()
            guard index < bytes.count, !starts(with: "</") else { throw syntax("a <key> without a value") }
            entries.append(PropertyListDictionary.Entry(key: key, value: try value(depth: depth)))
        }
    }
}
