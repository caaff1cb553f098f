import ArgumentParser

/// `--format text|json`, accepted by every subcommand.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    case text
    case json
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
