import FoundationEssentials
import SWCredCore

/// Where a command's output goes: data to stdout, diagnostics and prompts to stderr.
///
/// In JSON mode stdout carries exactly one JSON document (or JSON lines), nothing else.
/// Every JSON document gets `"schema": "swcred/1"` at the top level.
struct Console: Sendable {
    let format: OutputFormat

    static let schema = "swcred/1"

    /// Writes a line (or raw text) to stdout; a closed pipe or full disk ends it quietly (no trap).
    func out(_ text: String, newline: Bool = true) {
        outBytes(Array((newline ? text + "\n" : text).utf8))
    }

    /// Writes raw bytes to stdout.
    func outBytes(_ bytes: [UInt8]) {
        CommandContext.write(bytes, to: Stream.standardOutput.descriptor)
    }

    /// Writes a diagnostic line to stderr.
    func err(_ text: String) {
        CommandContext.write(Array((text + "\n").utf8), to: Stream.standardError.descriptor)
    }

    /// Writes a warning to stderr (text mode: `warning: …`; JSON mode keeps stderr free-form too).
    func warn(_ text: String) {
        err("\(Self.paint("warning:", .yellow, on: .standardError)) \(text)")
    }

    /// ANSI colours for text output.
    enum Colour: String, Sendable {
        case red = "31", green = "32", yellow = "33", bold = "1", dim = "2"
    }

    enum Stream: Sendable {
        case standardOutput, standardError
        /// The command's descriptor for this stream.
        var descriptor: Int32 {
            let context = CommandContext.current
            return self == .standardOutput ? context.standardOutput : context.standardError
        }
    }

    /// `text` in `colour` when `stream` is a terminal and colour is allowed; `text` unchanged
    /// otherwise (pipes, files, `NO_COLOR`, `TERM=dumb`, JSON mode callers never ask).
    static func paint(_ text: String, _ colour: Colour, on stream: Stream = .standardOutput) -> String {
        colourAllowed(on: stream) ? "\u{1B}[\(colour.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// Colour only on a terminal, never with `NO_COLOR` set (https://no-color.org) or `TERM=dumb`.
    static func colourAllowed(on stream: Stream) -> Bool {
        let environment = CommandContext.current.environment
        if let noColour = environment["NO_COLOR"], !noColour.isEmpty { return false }
        if environment["TERM"] == "dumb" { return false }
        return CommandContext.isTerminal(stream.descriptor)
    }


    /// A person at a terminal: stdin and stderr are both terminals (prompts are shown on stderr
    /// and answered on stdin). Defaults that would ask fall back to non-interactive answers
    /// otherwise.
    static var interactiveTerminal: Bool {
        let context = CommandContext.current
        return CommandContext.isTerminal(context.standardInput) && CommandContext.isTerminal(context.standardError)
    }

    /// Encodes `value` as one JSON document on stdout, with `"schema": "swcred/1"` added.
    func emitJSON<T: Encodable>(_ value: T, pretty: Bool = true) {
        out(Self.encode(value, pretty: pretty))
    }

    /// The result in the chosen format: `value` as the JSON document (made only in JSON mode), or
    /// what `text` prints.
    func emit<T: Encodable>(_ value: @autoclosure () throws -> T, text: () throws -> Void) rethrows {
        switch format {
        case .json: emitJSON(try value())
        case .text: try text()
        }
    }

    /// Encodes `value` as one JSON line on stdout, with `"schema": "swcred/1"` added.
    func emitJSONLine<T: Encodable>(_ value: T) {
        out(Self.encode(value, pretty: false))
    }

    /// Encodes with sorted keys and the schema field; never fails for swcred's own result types.
    static func encode<T: Encodable>(_ value: T, pretty: Bool) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        do {
            let data = try encoder.encode(MergedDocument(value, SchemaMember()))
            return String(decoding: data, as: UTF8.self)
        } catch {
            // Result types are plain Codable structs; reaching here is a programmer error.
            return #"{"schema":"swcred/1","error":{"code":"internalError","message":"could not encode output"}}"#
        }
    }

    /// Reports an error: one stderr line in text mode, one JSON object on stderr in JSON mode.
    func report(_ error: SWCredError) {
        switch format {
        case .text:
            err("swcred: \(Self.paint("error:", .red, on: .standardError)) \(error.message) [\(error.code.name)]")
        case .json:
            err(Self.encode(ErrorDocument(error: .init(error)), pretty: false))
        }
    }
}

/// Two documents written as one JSON object with the members of both: a result with its
/// `"schema"`, `show`'s item (the listed attributes and the rest), `import`'s counts with the run.
struct MergedDocument<First: Encodable, Second: Encodable>: Encodable {
    let first: First
    let second: Second

    init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }

    func encode(to encoder: any Encoder) throws {
        try first.encode(to: encoder)
        try second.encode(to: encoder)
    }
}

/// The `"schema"` member every document carries.
private struct SchemaMember: Encodable {
    var schema = Console.schema
}

/// `{"error":{"code","status","domain","message"}}` (``SWCredError/Document``).
struct ErrorDocument: Encodable {
    let error: SWCredError.Document
}
