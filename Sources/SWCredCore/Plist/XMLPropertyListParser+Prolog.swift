extension XMLPropertyListParser {
    /// XML 1.0 §2.8: `<?xml version="1.0" encoding="UTF-8" standalone="…"?>`. The encoding, when
    /// named, must be UTF-8.
    mutating func xmlDeclaration() throws(Failure) {
        let start = index
        index += 5
        var encoding: String?
        while true {
            skipWhitespace()
            if starts(with: "?>") {
                index += 2
                break
            }
            guard index < bytes.count else { throw syntax("unterminated <?xml?> declaration") }
            let (name, value) = try attribute()
            switch name {
            case "version":
                guard value.hasPrefix("1.") else { throw failure(.unsupported, "an XML version other than 1.x") }
            case "encoding": encoding = value
            case "standalone": break
            default: throw syntax("an unknown <?xml?> pseudo-attribute")
            }
        }
        if let encoding, encoding.lowercased() != "utf-8" {
            index = start
            throw failure(
                .unsupported, "the XML property list declares the encoding \(encoding.prefix(32)); only UTF-8 is read")
        }
    }

    /// XML 1.0 §2.2 `Char`, over the whole (valid UTF-8) input: no C0 control but tab, LF and
    /// CR, and neither U+FFFE nor U+FFFF, anywhere (text, comments, the DOCTYPE, attributes).
    func checkCharacters() throws(Failure) {
        var position = index
        while position < bytes.count {
            let byte = bytes[position]
            if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
                throw Failure(kind: .encoding, offset: position, message: "a control character XML does not allow")
            }
            // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
            if byte == 0xEF, bytes.count - position >= 3, bytes[position + 1] == 0xBF, bytes[position + 2] >= 0xBE {
                throw Failure(kind: .encoding, offset: position, message: "U+FFFE or U+FFFF, which XML does not allow")
            }
            position += 1
        }
    }

    /// XML 1.0 §2.8: `'<!DOCTYPE' S Name (S ExternalID)? S? '>'`, where §4.2.2 `ExternalID` is
    /// `'SYSTEM' S SystemLiteral` or `'PUBLIC' S PubidLiteral S SystemLiteral`. An internal subset
    /// (`[ … ]`) could declare entities; it is refused.
    mutating func doctype() throws(Failure) {
        index += 9
        guard index < bytes.count, Self.isWhitespace(bytes[index]) else {
            throw syntax("expected a name in <!DOCTYPE>")
        }
        skipWhitespace()
        _ = try name()
        let spaced = index < bytes.count && Self.isWhitespace(bytes[index])
        skipWhitespace()
        if spaced && (starts(with: "PUBLIC") || starts(with: "SYSTEM")) {
            let isPublic = starts(with: "PUBLIC")
            index += 6
            if isPublic { try doctypeLiteral(publicID: true) }
            try doctypeLiteral(publicID: false)
            skipWhitespace()
        }
        guard index < bytes.count else { throw syntax("unterminated <!DOCTYPE>") }
        if bytes[index] == UInt8(ascii: "[") { throw failure(.unsupported, "a <!DOCTYPE> internal subset") }
        guard bytes[index] == UInt8(ascii: ">") else { throw syntax("a malformed <!DOCTYPE>") }
        index += 1
    }

    /// White space, then a quoted §2.3 `SystemLiteral` or `PubidLiteral` (restricted characters).
    mutating func doctypeLiteral(publicID: Bool) throws(Failure) {
        guard index < bytes.count, Self.isWhitespace(bytes[index]) else { throw syntax("a malformed <!DOCTYPE>") }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw syntax("a malformed <!DOCTYPE>")
        }
        let quote = bytes[index]
        index += 1
        while index < bytes.count, bytes[index] != quote {
            guard !publicID || Self.isPublicIDCharacter(bytes[index]) else {
                throw syntax("a character a <!DOCTYPE> public identifier does not allow")
            }
            index += 1
        }
        guard index < bytes.count else { throw syntax("unterminated <!DOCTYPE>") }
        index += 1
    }

    /// §2.3 `PubidChar ::= #x20 | #xD | #xA | [a-zA-Z0-9] | [-'()+,./:=?;!*#@$_%]`.
    static func isPublicIDCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x0D, 0x0A, UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("-'()+,./:=?;!*#@$_%".utf8).contains(byte)
        }
    }
}
