import ArgumentParser
import FoundationEssentials
import SWCredAssociation
import SWCredCore
import SWCredRetrieval

/// Buffered stdout of a bulk run: JSON lines (keys sorted, as every swcred document) or text.
struct BulkOutput {
    let json: Bool
    private var buffer: [UInt8] = []

    init(json: Bool) {
        self.json = json
        buffer.reserveCapacity(1 << 17)
    }

    mutating func result(_ decided: BulkMatcher.Result, appID: String?) {
        let (line, url, result, entitlement, error) =
            (decided.line, decided.url, decided.result, decided.entitlement, decided.problem)
        let app = result.appID ?? appID
        guard json else {
            append(result.outcome.rawValue)
            buffer.append(0x09)
            append(app ?? "-")
            buffer.append(0x09)
            append(url)
            buffer.append(0x0A)
            return
        }
        buffer.append(contentsOf: Self.lineStart)
        if let app { appendJSONString(app) } else { append("null") }
        if entitlement == nil, error == nil {
            buffer.append(contentsOf: Self.lineNumber)
        } else {
            buffer.append(contentsOf: Self.lineEntitlement)
            if let entitlement { appendJSONString(entitlement) } else { append("null") }
            if let error {
                buffer.append(contentsOf: Self.lineError)
                append(Console.encode(ErrorDocument.Body(error), pretty: false))
            }
            buffer.append(contentsOf: Self.lineNumberAfterEntitlement)
        }
        appendDecimal(line)
        buffer.append(contentsOf: Self.lineOutcome)
        append(result.outcome.rawValue)
        buffer.append(contentsOf: Self.lineRule)
        if let rule = result.rule {
            if let file = decided.file, let index = decided.ruleIndex, index < file.ruleJSON.count {
                if file.ruleJSON[index] == nil { file.ruleJSON[index] = Self.ruleJSON(rule) }
                append(file.ruleJSON[index] ?? "null")
            } else {
                append(Self.ruleJSON(rule))
            }
        } else {
            append("null")
        }
        buffer.append(contentsOf: Self.lineURL)
        appendJSONString(url)
        buffer.append(contentsOf: Self.lineEnd)
        if buffer.count > 1 << 16 { flush() }
    }

    /// The fixed parts of a result line (keys sorted), as bytes.
    private static let lineStart = Array(#"{"appID":"#.utf8)
    private static let lineNumber = Array(#","entitlement":null,"line":"#.utf8)
    private static let lineEntitlement = Array(#","entitlement":"#.utf8)
    private static let lineError = Array(#","error":"#.utf8)
    private static let lineNumberAfterEntitlement = Array(#","line":"#.utf8)
    private static let lineOutcome = Array(#","outcome":""#.utf8)
    private static let lineRule = Array(#"","rule":"#.utf8)
    private static let lineURL = Array(#","schema":"swcred/1","url":"#.utf8)
    private static let lineEnd = Array("}\n".utf8)

    static func ruleJSON(_ rule: MatchedRule) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(rule) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    mutating func invalid(line: Int, error: SWCredError, console: Console) {
        if json {
            append(Console.encode(InvalidLine(line: line, error: .init(error)), pretty: false))
            buffer.append(0x0A)
        } else {
            flush()
            console.err("swcred: line \(line): \(error.message) [\(error.code.name)]")
        }
    }

    mutating func summary(_ summary: BulkMatchSummary, console: Console) {
        if json {
            append(Console.encode(SummaryDocument(summary: summary), pretty: false))
            buffer.append(0x0A)
        } else {
            flush()
            var text = "\(summary.urls + summary.invalid) URLs: \(summary.match) match, \(summary.exclude) exclude, "
            text += "\(summary.noMatch) no_match, \(summary.invalid) invalid"
            if summary.unretrieved > 0 { text += " (\(summary.unretrieved) decided without their file)" }
            console.err(text)
            for (app, counts) in summary.byApp.sorted(by: { $0.key < $1.key }) {
                console.err("  \(app): \(counts.match) match, \(counts.exclude) exclude")
            }
            if !summary.unusedRules.isEmpty {
                console.err("  rules no URL reached:")
                for unused in summary.unusedRules {
                    let rule = unused.rule
                    console.err(
                        "    \(unused.host.map { $0 + " " } ?? "")\(rule.key)[\(rule.component)] of detail \(rule.detail)\t"
                            + MatchCommand.compactJSON(rule.pattern))
                }
            }
        }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        CommandContext.write(buffer, to: CommandContext.current.standardOutput)
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    /// The decimal digits of `value` (a line number).
    private mutating func appendDecimal(_ value: Int) {
        guard value > 0 else {
            append(String(value))
            return
        }
        // Room for the 19 digits of Int.max.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { space in
            while rest > 0 {
                count += 1
                space[24 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: space[(24 - count)...]))
        }
    }

    /// A JSON string literal (quotes, backslash and controls escaped; everything else as UTF-8).
    private mutating func appendJSONString(_ text: String) {
        var text = text
        // Most texts (URLs, app IDs) need no escape: copied in one go.
        let copied = text.withUTF8 { bytes in
            for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            buffer.append(UInt8(ascii: "\""))
            buffer.append(contentsOf: bytes)
            buffer.append(UInt8(ascii: "\""))
            return true
        }
        if !copied { appendEscapedJSONString(text) }
    }

    private mutating func appendEscapedJSONString(_ text: String) {
        buffer.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): buffer.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): buffer.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: buffer.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: buffer.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: buffer.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                buffer.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: buffer.append(byte)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    struct InvalidLine: Encodable {
        let line: Int
        let error: ErrorDocument.Body
    }

    struct SummaryDocument: Encodable {
        let summary: BulkMatchSummary
    }
}
