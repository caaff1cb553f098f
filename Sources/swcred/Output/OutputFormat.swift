import ArgumentParser

/// `--format text|json`, accepted by every subcommand.
///
/// A plain enum with its `ExpressibleByArgument` members written out rather than a
/// `String`-backed `CaseIterable` one: for an option's default value swift-argument-parser casts
/// to `CaseIterable & RawRepresentable` and lists the values through `CaseIterable`'s associated
/// type, three protocol-conformance look-ups (each a scan of every conformance record in the
/// binary) at every command's start (issue 22). Help, completions and errors read the same.
enum OutputFormat: ExpressibleByArgument, Sendable {
    case text
    case json

    init?(argument: String) {
        switch argument {
        case "text": self = .text
        case "json": self = .json
        default: return nil
        }
    }

    var defaultValueDescription: String {
        switch self {
        case .text: "text"
        case .json: "json"
        }
    }

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
