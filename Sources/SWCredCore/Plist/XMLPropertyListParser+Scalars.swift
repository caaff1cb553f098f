extension XMLPropertyListParser {
    /// `<integer>`: optional white space, then `[+-]?[0-9]+` or `0x[0-9A-Fa-f]+` (CoreFoundation
    /// and Python's plistlib both read hex), within -2⁶³ … 2⁶⁴-1.
    func integer(_ text: String) throws(Failure) -> PropertyListValue {
        var utf8 = Substring(Self.trimmed(text)).utf8[...]
        guard !utf8.isEmpty else { throw syntax("an empty <integer>") }
        var negative = false
        var radix: UInt64 = 10
        if utf8.first == UInt8(ascii: "-") || utf8.first == UInt8(ascii: "+") {
            negative = utf8.first == UInt8(ascii: "-")
            utf8 = utf8.dropFirst()
        } else if utf8.starts(with: Array("0x".utf8)) || utf8.starts(with: Array("0X".utf8)) {
            radix = 16
            utf8 = utf8.dropFirst(2)
        }
        guard !utf8.isEmpty else { throw syntax("an <integer> without digits") }
        var magnitude: UInt64 = 0
        for byte in utf8 {
            guard let digit = Self.digit(byte, radix: radix) else { throw syntax("an <integer> that is not a number") }
            let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, carry) = shifted.addingReportingOverflow(digit)
            guard !overflow, !carry else { throw failure(.unsupported, "an <integer> outside the 64-bit range") }
            magnitude = sum
        }
        if !negative { return BinaryPropertyListParser.normalised(magnitude) }
        if magnitude == UInt64(Int64.max) + 1 { return .integer(.min) }
        guard let value = Int64(exactly: magnitude) else {
            throw failure(.unsupported, "an <integer> outside the 64-bit range")
        }
        return .integer(-value)
    }

    static func digit(_ byte: UInt8, radix: UInt64) -> UInt64? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: UInt64(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: UInt64(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// `<real>`: a decimal number `[+-]?(digits[.digits]|.digits)([eE][+-]?digits)?`, or `nan`,
    /// `inf`, `infinity` with an optional sign, in any case (CoreFoundation writes `+infinity`,
    /// Python `inf`).
    func real(_ text: String) throws(Failure) -> PropertyListValue {
        let trimmed = Self.trimmed(text)
        var utf8 = Substring(trimmed).utf8[...]
        if utf8.first == UInt8(ascii: "-") || utf8.first == UInt8(ascii: "+") { utf8 = utf8.dropFirst() }
        let word = String(decoding: utf8, as: UTF8.self).lowercased()
        if word == "nan" { return .real(.nan) }
        if word == "inf" || word == "infinity" { return .real(trimmed.hasPrefix("-") ? -.infinity : .infinity) }
        // The grammar, step by step: mantissa digits with at most one point, then an exponent.
        var digits = 0
        var sawPoint = false
        while let byte = utf8.first, byte == UInt8(ascii: ".") || Self.digit(byte, radix: 10) != nil {
            if byte == UInt8(ascii: ".") {
                guard !sawPoint else { throw syntax("a <real> that is not a number") }
                sawPoint = true
            } else {
                digits += 1
            }
            utf8 = utf8.dropFirst()
        }
        guard digits > 0 else { throw syntax("a <real> that is not a number") }
        if utf8.first == UInt8(ascii: "e") || utf8.first == UInt8(ascii: "E") {
            utf8 = utf8.dropFirst()
            if utf8.first == UInt8(ascii: "-") || utf8.first == UInt8(ascii: "+") { utf8 = utf8.dropFirst() }
            guard !utf8.isEmpty, utf8.allSatisfy({ Self.digit($0, radix: 10) != nil }) else {
                throw syntax("a <real> that is not a number")
            }
            utf8 = utf8[utf8.endIndex...]
        }
        guard utf8.isEmpty, let value = Double(trimmed) else { throw syntax("a <real> that is not a number") }
        return .real(value)
    }

    /// `<date>`: ISO 8601 `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds), as seconds since
    /// 2001-01-01T00:00:00Z.
    func date(_ text: String) throws(Failure) -> PropertyListValue {
        let utf8 = Array(Self.trimmed(text).utf8)
        let pattern = Array("0000-00-00T00:00:00Z".utf8)
        guard utf8.count == pattern.count else { throw syntax("a <date> not in the form YYYY-MM-DDTHH:MM:SSZ") }
        for (byte, expected) in zip(utf8, pattern) {
            let matches = expected == UInt8(ascii: "0") ? Self.digit(byte, radix: 10) != nil : byte == expected
            guard matches else { throw syntax("a <date> not in the form YYYY-MM-DDTHH:MM:SSZ") }
        }
        func number(_ range: Range<Int>) -> Int {
            utf8[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        let (year, month, day) = (number(0..<4), number(5..<7), number(8..<10))
        let (hour, minute, second) = (number(11..<13), number(14..<16), number(17..<19))
        guard (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day), hour < 24,
            minute < 60, second < 60
        else { throw syntax("a <date> with a field out of range") }
        let days =
            Self.daysFromCivil(year: year, month: month, day: day) - Self.daysFromCivil(year: 2001, month: 1, day: 1)
        return .date(Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `<data>`: base64 (RFC 4648 §4) with white space anywhere, padded to a multiple of four.
    func base64(_ text: String) throws(Failure) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count / 4 * 3)
        var quantum: UInt32 = 0
        var filled = 0
        var padding = 0
        for byte in text.utf8 {
            let sextet: UInt32
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): sextet = UInt32(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): sextet = UInt32(byte - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sextet = UInt32(byte - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "+"): sextet = 62
            case UInt8(ascii: "/"): sextet = 63
            case UInt8(ascii: "="):
                // Padding: only in the last two places of a quantum, and nothing after it.
                guard filled >= 2 else { throw syntax("misplaced '=' in <data>") }
                padding += 1
                filled += 1
                quantum <<= 6
                if filled == 4 {
                    output.append(UInt8(truncatingIfNeeded: quantum >> 16))
                    if padding == 1 { output.append(UInt8(truncatingIfNeeded: quantum >> 8)) }
                    filled = 0
                }
                continue
            default:
                guard Self.isWhitespace(byte) else { throw syntax("a character outside base64 in <data>") }
                continue
            }
            guard padding == 0 else { throw syntax("base64 after '=' in <data>") }
            quantum = quantum << 6 | sextet
            filled += 1
            if filled == 4 {
                output.append(UInt8(truncatingIfNeeded: quantum >> 16))
                output.append(UInt8(truncatingIfNeeded: quantum >> 8))
                output.append(UInt8(truncatingIfNeeded: quantum))
                filled = 0
                quantum = 0
            }
        }
        guard filled == 0 else { throw syntax("<data> is not a whole number of base64 quanta") }
        return output
    }

    /// `text` without leading and trailing XML white space.
    static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(where: { !isWhitespace($0) }),
            let last = utf8.lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        return String(decoding: utf8[first...last], as: UTF8.self)
    }
}
