/// The Password Rules parser, step by step as Apple's reference parser
/// (`password-manager-resources/tools/PasswordRulesParser`, PW-4.1).
///
/// It works on UTF-16 code units, as the JavaScript original indexes strings, so every position
/// and every decision matches. It never traps: every index is checked against the length, and
/// integers saturate instead of overflowing.
struct PasswordRulesParser {
    private let input: [UInt16]
    private var diagnostics: [PasswordRules.Diagnostic] = []

    init(_ input: [UInt16]) {
        self.input = input
    }

    // MARK: Lexer

    private static let semicolon = UInt16(UInt8(ascii: ";"))
    private static let comma = UInt16(UInt8(ascii: ","))
    private static let colon = UInt16(UInt8(ascii: ":"))
    private static let openBracket = UInt16(UInt8(ascii: "["))
    private static let closeBracket = UInt16(UInt8(ascii: "]"))
    private static let dash = UInt16(UInt8(ascii: "-"))

    private func at(_ position: Int) -> UInt16? {
        position >= 0 && position < input.count ? input[position] : nil
    }

    private static func isIdentifierCharacter(_ c: UInt16?) -> Bool {
        guard let c else { return false }
        return (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || c == dash
    }

    private static func isDigit(_ c: UInt16?) -> Bool {
        guard let c else { return false }
        return c >= 0x30 && c <= 0x39
    }

    private static func isPrintable(_ c: UInt16) -> Bool { c >= 0x20 && c <= 0x7E }

    /// Space, form feed, line feed, carriage return, tab.
    private static func isWhitespace(_ c: UInt16?) -> Bool {
        guard let c else { return false }
        return c == 0x20 || c == 0x0C || c == 0x0A || c == 0x0D || c == 0x09
    }

    private func skipWhitespace(from start: Int) -> Int {
        var position = start
        while position < input.count && Self.isWhitespace(input[position]) { position += 1 }
        return position
    }

    private func text(from position: Int, limit: Int = 40) -> String {
        guard position < input.count else { return "end of input" }
        let end = min(input.count, position + limit)
        let slice = String(decoding: input[position..<end], as: UTF16.self)
        return "\"" + slice + (end < input.count ? "…" : "") + "\""
    }

    private mutating func note(_ position: Int, _ message: String) {
        diagnostics.append(.init(offset: position, message: message))
    }

    // MARK: Parser steps

    /// Reads `1*( ALPHA / "-" )`.
    private func parseIdentifier(at start: Int) -> (String, Int) {
        var position = start
        while position < input.count && Self.isIdentifierCharacter(input[position]) { position += 1 }
        return (String(decoding: input[start..<position], as: UTF16.self), position)
    }

    /// Reads `"[" *CHAR "]"` with the reference parser's quirks (PW-4.5): non-printable characters
    /// are dropped, `-` is literal only first, `]` is literal only as `]]` at the end.
    /// Returns `nil` when the input ends inside the class.
    private mutating func parseCustomCharacterClass(at start: Int) -> ([UInt8]?, Int) {
        var position = start + 1
        guard position < input.count else {
            note(position, "the input ended instead of a character class character")
            return (nil, position)
        }
        let initialPosition = position
        var result: [UInt8] = []
        repeat {
            let c = input[position]
            if !Self.isPrintable(c) {
                note(position, "ignored a character that is not printable ASCII in a character class")
                position += 1
                continue
            }
            if c == Self.dash && position - initialPosition > 0 {
                note(position, "ignored '-': a '-' may only appear as the first character of a character class")
                position += 1
                continue
            }
            result.append(UInt8(truncatingIfNeeded: c))
            position += 1
            if c == Self.closeBracket { break }
        } while position < input.count

        if (position < input.count && input[position] != Self.closeBracket)
            || (position == input.count && at(position - 1) == Self.closeBracket)
        {
            // The closing ']' was consumed as a character: give it back.
            if !result.isEmpty { result.removeLast() }
            if let next = at(position), !Self.isWhitespace(next), next != Self.comma, next != Self.semicolon {
                note(
                    position,
                    "a ']' inside a character class must be its last character (write ']]'); found \(text(from: position)) after it"
                )
            }
            return (result, position)
        }
        if at(position) == Self.closeBracket {
            return (result, position + 1)
        }
        note(position, "the input ended inside a character class")
        return (nil, position)
    }

    /// Reads a class list (PW-4.2); `nil` when it is malformed.
    private mutating func parseClassList(at start: Int) -> ([CharacterClass]?, Int) {
        var position = start
        var values: [CharacterClass] = []
        while true {
            if Self.isIdentifierCharacter(at(position)) {
                let identifierStart = position
                let (identifier, next) = parseIdentifier(at: position)
                position = next
                guard let named = CharacterClass.named(identifier.lowercased()) else {
                    note(identifierStart, "unknown character class \"\(identifier)\"")
                    return (nil, identifierStart)
                }
                values.append(named)
            } else if at(position) == Self.openBracket {
                let (characters, next) = parseCustomCharacterClass(at: position)
                position = next
                if let characters, !characters.isEmpty {
                    values.append(.custom(characters))
                }
            } else {
                note(position, "expected a character class, found \(text(from: position))")
                return (nil, position)
            }

            position = skipWhitespace(from: position)
            if position >= input.count || input[position] == Self.semicolon { break }
            if input[position] == Self.comma {
                position = skipWhitespace(from: position + 1)
                if position >= input.count {
                    note(position, "the input ended instead of the next character class")
                    return (nil, position)
                }
                continue
            }
            note(position, "expected ',' or ';', found \(text(from: position))")
            return (nil, position)
        }
        return (values, position)
    }

    /// Reads `1*DIGIT` followed directly by `;` or the end; saturates instead of overflowing.
    private mutating func parseInteger(at start: Int) -> (Int?, Int) {
        guard Self.isDigit(at(start)) else {
            note(start, "expected an integer, found \(text(from: start))")
            return (nil, start)
        }
        var position = start
        var value = 0
        repeat {
            let digit = Int(input[position] - 0x30)
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(digit)
            value = (o1 || o2) ? Int.max : sum
            position += 1
        } while position < input.count && input[position] != Self.semicolon && Self.isDigit(input[position])

        if position >= input.count || input[position] == Self.semicolon {
            return (value, position)
        }
        note(start, "expected an integer followed by ';', found \(text(from: start))")
        return (nil, position)
    }

    /// A property as read, before canonicalisation; `value == nil` means the property is dropped.
    private struct RawRule {
        enum Value {
            case classes([CharacterClass])
            case integer(Int)
        }
        let name: String
        let value: Value?
    }

    private static let ruleNames: Set<String> = [
        "allowed", "max-consecutive", "max-repeating", "max-sequential", "required", "minlength", "maxlength",
    ]

    /// Reads `name ":" *ws [ value ]`; `nil` for an unknown name or a missing ':'.
    private mutating func parseRule(at start: Int) -> (RawRule?, Int) {
        let (identifier, afterName) = parseIdentifier(at: start)
        guard Self.ruleNames.contains(identifier) else {
            note(start, "unknown property \"\(identifier)\"")
            return (nil, start)
        }
        var position = afterName
        guard position < input.count else {
            note(position, "the input ended instead of ':' after \"\(identifier)\"")
            return (nil, position)
        }
        guard input[position] == Self.colon else {
            note(position, "expected ':' after \"\(identifier)\", found \(text(from: position))")
            return (nil, position)
        }
        position = skipWhitespace(from: position + 1)
        if position >= input.count || input[position] == Self.semicolon {
            note(position, "\"\(identifier)\" has no value and is dropped")
            return (RawRule(name: identifier, value: nil), position)
        }
        switch identifier {
        case "allowed", "required":
            let (classes, next) = parseClassList(at: position)
            if classes == nil { note(position, "\"\(identifier)\" is dropped") }
            return (RawRule(name: identifier, value: classes.map { .classes($0) }), next)
        default:
            let (integer, next) = parseInteger(at: position)
            if let integer, integer != 0 {
                return (RawRule(name: identifier, value: .integer(integer)), next)
            }
            note(position, integer == 0 ? "\"\(identifier)\" is 0 and is dropped" : "\"\(identifier)\" is dropped")
            return (RawRule(name: identifier, value: nil), next)
        }
    }

    /// The property loop; `nil` when the whole input is discarded.
    private mutating func parseRules() -> [RawRule]? {
        var parsed: [RawRule] = []
        var position = skipWhitespace(from: 0)
        while position < input.count {
            guard Self.isIdentifierCharacter(input[position]) else {
                note(
                    position,
                    "parsing stopped: expected a property name, found \(text(from: position)); the rest is ignored")
                return parsed
            }
            let (rule, next) = parseRule(at: position)
            if let rule, rule.value != nil { parsed.append(rule) }
            position = skipWhitespace(from: next)
            if position >= input.count { break }
            if input[position] == Self.semicolon {
                position = skipWhitespace(from: position + 1)
                if position >= input.count { return parsed }
                continue
            }
            note(position, "expected ';', found \(text(from: position)); the whole rules string is discarded")
            return nil
        }
        return parsed
    }

    // MARK: Canonicalisation (PW-4.7)

    /// Canonicalises a class list: the first `unicode` or `ascii-printable` wins; otherwise the
    /// fully covered named classes, then one custom class of the leftovers.
    static func canonicalize(_ values: [CharacterClass]) -> [CharacterClass] {
        var covered = ASCIISet.empty
        for value in values {
            switch value {
            case .unicode: return [.unicode]
            case .asciiPrintable: return [.asciiPrintable]
            default: covered = covered.union(value.asciiSet)
            }
        }
        var leftovers: [UInt8] = []
        func full(_ set: ASCIISet) -> Bool {
            let has = covered.intersection(set)
            if has == set { return true }
            leftovers += has.members
            return false
        }
        let allUpper = full(.upper)
        let allLower = full(.lower)
        let allDigits = full(.digit)
        let allSpecial = full(.special)
        if allUpper && allLower && allDigits && allSpecial { return [.asciiPrintable] }
        var result: [CharacterClass] = []
        if allUpper { result.append(.upper) }
        if allLower { result.append(.lower) }
        if allDigits { result.append(.digit) }
        if allSpecial { result.append(.special) }
        if !leftovers.isEmpty { result.append(.custom(leftovers)) }
        return result
    }

    // MARK: Entry point

    mutating func parse() -> PasswordRules {
        let parsedOrNil = parseRules()
        if parsedOrNil == nil {
            note(0, "the rules string is malformed; it is treated as empty (allowed: ascii-printable)")
        }
        var required: [PasswordRule] = []
        var allowedValues: [CharacterClass] = []
        var maxConsecutive: Int?
        var maxRepeating: Int?
        var maxSequential: Int?
        var minLength = 0
        var maxLength: Int?
        for rule in parsedOrNil ?? [] {
            switch (rule.name, rule.value) {
            case ("max-consecutive", .integer(let n)?): maxConsecutive = min(n, maxConsecutive ?? n)
            case ("max-repeating", .integer(let n)?): maxRepeating = min(n, maxRepeating ?? n)
            case ("max-sequential", .integer(let n)?): maxSequential = min(n, maxSequential ?? n)
            case ("minlength", .integer(let n)?): minLength = max(n, minLength)
            case ("maxlength", .integer(let n)?): maxLength = min(n, maxLength ?? n)
            case ("required", .classes(let classes)?):
                let canonical = Self.canonicalize(classes)
                required.append(.required(canonical))
                allowedValues += canonical
            case ("allowed", .classes(let classes)?):
                allowedValues += classes
            default:
                break
            }
        }
        var allowed = Self.canonicalize(allowedValues)
        if allowed.isEmpty { allowed = [.asciiPrintable] }
        var rules = required
        rules.append(.allowed(allowed))
        if let maxConsecutive { rules.append(.maxConsecutive(maxConsecutive)) }
        if let maxRepeating { rules.append(.maxRepeating(maxRepeating)) }
        if let maxSequential { rules.append(.maxSequential(maxSequential)) }
        if minLength > 0 { rules.append(.minLength(minLength)) }
        if let maxLength { rules.append(.maxLength(maxLength)) }
        return PasswordRules(rules: rules, diagnostics: diagnostics)
    }
}
