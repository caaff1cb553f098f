// Percent decoding and UTF-8 validation on bytes, for an ``ApplinksAutomaton``'s paths, queries
// and fragments (AD-7.12): what `PercentDecoding.decode` does on strings, without building any.

extension ApplinksAutomaton {
    /// `PercentDecoding.decode` on bytes, into `output` (emptied first): each run of `%XX` escapes
    /// becomes its bytes when they are well-formed UTF-8, else stays as written; other bytes are
    /// copied. `text` is ASCII, so `output` is well-formed UTF-8.
    static func percentDecode(_ text: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        output.removeAll(keepingCapacity: true)
        let count = text.count
        var index = 0
        while index < count {
            guard text[index] == UInt8(ascii: "%"), index + 2 < count, let high = hexValue(text[index + 1]),
                let low = hexValue(text[index + 2])
            else {
                output.append(text[index])
                index += 1
                continue
            }
            // A run of escapes.
            let runStart = index
            let decodedStart = output.count
            output.append(high << 4 | low)
            index += 3
            while index + 2 < count, text[index] == UInt8(ascii: "%"), let high = hexValue(text[index + 1]),
                let low = hexValue(text[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            }
            if !Self.isWellFormedUTF8(output[decodedStart...]) {
                output.removeSubrange(decodedStart...)
                output.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<index]))
            }
        }
    }

    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Whether `bytes` are well-formed UTF-8 (Unicode table 3-7: no overlong forms, no
    /// surrogates, nothing above U+10FFFF), as `String(validating:as:)` decides.
    static func isWellFormedUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end {
            let lead = bytes[i]
            var length = 0
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0x00...0x7F: i += 1; continue
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return false
            }
            guard end - i >= length else { return false }
            let second = bytes[i + 1]
            guard second >= low, second <= high else { return false }
            for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return false }
            i += length
        }
        return true
    }
}
