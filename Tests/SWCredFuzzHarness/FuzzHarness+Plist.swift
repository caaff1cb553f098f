import SWCredAssociation
import SWCredCore

extension FuzzHarness {
    /// The limits the `plist` target reads under: small, so that the fuzzer reaches each of them.
    static let plistLimits = PropertyListReader.Limits(
        maxBytes: 1 << 16, maxDepth: 12, maxValues: 512, maxElements: 64, maxStringBytes: 512)

    /// Property-list bytes, XML or binary, through SWCredCore's `PropertyListReader` and through
    /// `Entitlements.parse` (issue 28: no decoder swcred does not own sees them).
    ///
    /// Promises: no trap; an accepted value respects every limit; writing it as XML (when XML can
    /// hold it: no UID, no control character, whole-second dates of years 0–9999) and reading
    /// that back gives the same value; `Entitlements.parse` accepts a plist exactly when the
    /// reader, under the entitlements limits, reads a dictionary.
    public static func plist(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        if let value = try? PropertyListReader(limits: plistLimits).read(bytes) {
            problems += plistLimitProblems(value, depth: 0)
            var counted = 0
            countValues(value, into: &counted)
            if counted > plistLimits.maxValues { problems.append("\(counted) values were accepted") }
            if let xml = PlistXMLWriter.document(value) {
                do {
                    let again = try PropertyListReader().read(xml)
                    if !samePlist(again, value) { problems.append("the value changed through XML and reading back") }
                } catch {
                    problems.append("the XML written for an accepted value does not read back: \(error)")
                }
            }
        }
        // Entitlements: a plist (not JSON) is accepted exactly when it is a dictionary.
        let firstByte = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) })
        if firstByte != UInt8(ascii: "{") {
            let defaults = Entitlements.Limits()
            let reader = PropertyListReader(
                limits: PropertyListReader.Limits(maxBytes: defaults.maximumBytes, maxDepth: defaults.maximumDepth))
            let isDictionary = (try? reader.read(bytes))?.dictionaryValue != nil
            do {
                _ = try Entitlements.parse(bytes)
                if !isDictionary {
                    problems.append("entitlements accepted a plist the reader does not read as a dictionary")
                }
            } catch {
                if error.code != .malformedEntitlements {
                    problems.append("entitlements failed with \(error.code.name)")
                }
                if isDictionary { problems.append("entitlements refused a dictionary the reader reads") }
            }
        }
        return problems
    }

    static func plistLimitProblems(_ value: PropertyListValue, depth: Int) -> [String] {
        switch value {
        case .string(let text):
            return text.utf8.count > plistLimits.maxStringBytes ? ["a string over the limit was accepted"] : []
        case .array(let elements):
            if depth + 1 > plistLimits.maxDepth || elements.count > plistLimits.maxElements {
                return ["an array over the depth or element limit was accepted"]
            }
            return elements.flatMap { plistLimitProblems($0, depth: depth + 1) }
        case .dictionary(let dictionary):
            if depth + 1 > plistLimits.maxDepth || dictionary.count > plistLimits.maxElements
                || dictionary.keys.contains(where: { $0.utf8.count > plistLimits.maxStringBytes })
                || Set(dictionary.keys).count != dictionary.count
            {
                return ["a dictionary over the depth, entry or key limit, or with a repeated key, was accepted"]
            }
            return dictionary.entries.flatMap { plistLimitProblems($0.value, depth: depth + 1) }
        case .bool, .integer, .unsignedInteger, .real, .date, .data, .uid:
            return []
        }
    }

    static func countValues(_ value: PropertyListValue, into count: inout Int) {
        count += 1
        switch value {
        case .array(let elements): for element in elements { countValues(element, into: &count) }
        case .dictionary(let dictionary): for entry in dictionary.entries { countValues(entry.value, into: &count) }
        default: break
        }
    }

    /// Equality with NaN equal to NaN (a `<real>nan</real>` reads back as a NaN, never `==`).
    static func samePlist(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
        switch (a, b) {
        case (.real(let x), .real(let y)): return x == y || (x.isNaN && y.isNaN)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { samePlist($0, $1) }
        case (.dictionary(let x), .dictionary(let y)):
            return x.keys == y.keys && zip(x.entries, y.entries).allSatisfy { samePlist($0.value, $1.value) }
        default: return a == b
        }
    }
}

/// A minimal XML plist writer for the `plist` target's round trip (test code: swcred never
/// writes plists). Returns nil for a value XML cannot hold.
enum PlistXMLWriter {
    static func document(_ value: PropertyListValue) -> [UInt8]? {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n"
        guard write(value, to: &text) else { return nil }
        text += "</plist>\n"
        return Array(text.utf8)
    }

    static func write(_ value: PropertyListValue, to text: inout String) -> Bool {
        switch value {
        case .string(let string):
            guard let escaped = escape(string) else { return false }
            text += "<string>\(escaped)</string>"
        case .bool(let bool): text += bool ? "<true/>" : "<false/>"
        case .integer(let integer): text += "<integer>\(integer)</integer>"
        case .unsignedInteger(let integer): text += "<integer>\(integer)</integer>"
        // A NaN with a payload prints as `nan(0x…)` or `snan(0x…)`: plists write NaN as `nan`
        // (FailCases/plist/crash-d1140a85…).
        case .real(let real): text += real.isNaN ? "<real>nan</real>" : "<real>\(real)</real>"
        case .date(let seconds):
            guard let date = iso8601(seconds) else { return false }
            text += "<date>\(date)</date>"
        case .data(let bytes): text += "<data>\(base64(bytes))</data>"
        case .array(let elements):
            text += "<array>"
            for element in elements { guard write(element, to: &text) else { return false } }
            text += "</array>"
        case .dictionary(let dictionary):
            text += "<dict>"
            for entry in dictionary.entries {
                guard let key = escape(entry.key) else { return false }
                text += "<key>\(key)</key>"
                guard write(entry.value, to: &text) else { return false }
            }
            text += "</dict>"
        case .uid: return false
        }
        text += "\n"
        return true
    }

    /// `& < >` as entities and CR as `&#13;` (a literal CR would be read as LF); nil when the
    /// string holds a character XML 1.0 excludes.
    static func escape(_ string: String) -> String? {
        var result = ""
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x26: result += "&amp;"
            case 0x3C: result += "&lt;"
            case 0x3E: result += "&gt;"
            case 0x0D: result += "&#13;"
            case 0x09, 0x0A, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...: result.unicodeScalars.append(scalar)
            default: return nil
            }
        }
        return result
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` for whole seconds since 2001 within years 0000–9999, else nil.
    static func iso8601(_ seconds: Double) -> String? {
        guard seconds.isFinite, seconds == seconds.rounded(), abs(seconds) < 400_000_000_000 else { return nil }
        let total = Int(seconds) + 978_307_200  // since 1970
        let days = Int((Double(total) / 86_400).rounded(.down))
        let secondOfDay = total - days * 86_400
        // H. Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        guard (0...9999).contains(year) else { return nil }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let yearText = String(repeating: "0", count: 4 - String(year).count) + String(year)
        return "\(yearText)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):"
            + "\(two(secondOfDay % 60))Z"
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var result = ""
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var quantum = 0
            for (offset, byte) in chunk.enumerated() { quantum |= Int(byte) << (16 - 8 * offset) }
            for position in 0..<4 {
                result.append(position <= chunk.count ? alphabet[(quantum >> (18 - 6 * position)) & 0x3F] : "=")
            }
            index += 3
        }
        return result
    }
}
