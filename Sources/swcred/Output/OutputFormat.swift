import ArgumentParser

/// `--format text|json`, accepted by every subcommand.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    case text
    case json
}

/// The `--format` option group, shared by every subcommand.
struct FormatOptions: ParsableArguments {
    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text
}
