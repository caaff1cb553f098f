import ArgumentParser
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
                append(Console.encode(SWCredError.Document(error), pretty: false))
            }
            buffer.append(contentsOf: Self.lineNumberAfterEntitlement)
        }
        JSONText.appendInteger(line, to: &buffer)
        buffer.append(contentsOf: Self.lineOutcome)
        append(result.outcome.rawValue)
        buffer.append(contentsOf: Self.lineRule)
        if let rule = result.rule {
            if let file = decided.file, let index = decided.ruleIndex, index < file.ruleJSON.count {
                if file.ruleJSON[index] == nil { file.ruleJSON[index] = Console.encodePlain(rule) }
                append(file.ruleJSON[index] ?? "null")
            } else {
                append(Console.encodePlain(rule))
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
                            + Console.encodePlain(rule.pattern))
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

    /// A JSON string literal (``JSONText``).
    private mutating func appendJSONString(_ text: String) {
        JSONText.appendString(text, to: &buffer)
    }

    struct InvalidLine: Encodable {
        let line: Int
        let error: SWCredError.Document
    }

    struct SummaryDocument: Encodable {
        let summary: BulkMatchSummary
    }
}
