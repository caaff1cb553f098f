import ArgumentParser

/// `--format text|json`, accepted by every subcommand.
///
/// Not a `String`-backed `CaseIterable` enum: swift-argument-parser casts a default value to
/// `CaseIterable & RawRepresentable` and lists the values through `CaseIterable`, three scans of
/// every conformance record at every start (issue 22). Help, completions and errors read the same.
enum OutputFormat: ExpressibleByArgument, Sendable {
    case text
    case json

    init?(argument: String) {
        guard let index = Self.allValueStrings.firstIndex(of: argument) else { return nil }
        self = index == 0 ? .text : .json
    }

    var defaultValueDescription: String { self == .text ? "text" : "json" }
    static var allValueStrings: [String] { ["text", "json"] }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// The `--format` option group of the subcommands that do not work on the store (the store
/// commands declare the same option in ``GlobalStoreOptions``).
struct FormatOptions: ParsableArguments {
    static let help: ArgumentHelp = "Output format: text or json."

    @Option(help: help)
    var format: OutputFormat = .text
}

/// A subcommand whose only output option is the ``FormatOptions`` group.
protocol FormatOptionsSubcommand: SWCredSubcommand {
    var formatOptions: FormatOptions { get }
}

extension FormatOptionsSubcommand {
    var outputFormat: OutputFormat { formatOptions.format }
}

extension OutputFormat {
    /// The `--format` a command line asks for, read from its words before parsing (for errors
    /// that happen while parsing): the last `--format X` or `--format=X` before `--`; `nil` when
    /// none is given or its value is not a format.
    static func requested(in arguments: [String]) -> OutputFormat? {
        var format: OutputFormat?
        var index = arguments.startIndex
        while index < arguments.endIndex, arguments[index] != "--" {
            let word = arguments[index]
            if word == "--format", index + 1 < arguments.endIndex {
                format = OutputFormat(argument: arguments[index + 1]) ?? format
                index += 1
            } else if word.hasPrefix("--format=") {
                format = OutputFormat(argument: String(word.dropFirst("--format=".count))) ?? format
            }
            index += 1
        }
        return format
    }
}
