import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredSodium
import SWCredStore

/// `swcred export [--to jsonl|safari|chrome] [-o FILE] [--force]` (cli.md).
///
/// Writes every password item (never a "Passwords not saved" entry) in store order.
/// - `-o FILE` is created with mode 0600 and `O_EXCL`; an existing file is `outputExists` (74)
///   unless `--force`, which reuses it after setting its mode to 0600 (before truncating it).
///   Symbolic links are not followed.
/// - Without `-o` the export goes to stdout, but only when stdout is not a terminal
///   (`interactionNotAllowed`, 29, otherwise): passwords are not printed on a screen by accident.
/// - `--format json` with `-o` prints `{"schema","format","items","output"}`; without `-o`, stdout
///   carries the export itself, so JSON mode is refused for the CSV formats (64: stdout would not be
///   JSON), and for `jsonl` the JSON lines are the output.
/// The encoded export is wiped from memory after it is written.
struct ExportCommand: StoreSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "export", abstract: "Export every saved password as swcred JSON lines, or Safari or Chrome CSV.",
        discussion: """
            The output holds passwords in clear: -o FILE is created with mode 0600 and never \
            overwritten without --force; stdout is used only when it is not a terminal.
            """)

    @OptionGroup var storeOptions: GlobalStoreOptions

    @Option(help: ArgumentHelp("The export format: jsonl (default, read back by import), safari or chrome.",
                               valueName: "format"))
    var to = "jsonl"

    @Option(name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("Write to this file (created 0600) instead of stdout.", valueName: "path"))
    var output: String?

    @Flag(help: "Replace an existing output file (it ends with mode 0600).")
    var force = false

    func validate() throws {
        guard let format = CredentialExportFormat(rawValue: to) else {
            throw ValidationError("--to must be jsonl, safari or chrome")
        }
        if force && output == nil { throw ValidationError("--force needs -o FILE") }
        if output == nil && storeOptions.format == .json && format != .jsonl {
            throw ValidationError("--format json prints a JSON document on stdout; give -o FILE for a CSV export")
        }
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        let format = CredentialExportFormat(rawValue: to) ?? .jsonl
        try SecretDocumentOutput.refuseTerminal(output: output, what: "passwords")
        let items = try storeOptions.session(console).read().contents.items.filter { !$0.isNegative && $0.secret != nil }
        var bytes = try CredentialExport.encode(items, as: format)
        defer { Sodium.memzero(&bytes) }
        try SecretDocumentOutput.deliver(bytes, to: output, force: force) { output in
            console.emit(ExportResult(format: format.rawValue, items: items.count, output: output)) {
                console.err("swcred: exported \(items.count) passwords to \(output) (\(format.rawValue))")
            }
        }
        return .success
    }
}

/// `--format json` with `-o`: `{"schema","format","items","output"}`.
struct ExportResult: Encodable {
    let format: String
    let items: Int
    let output: String
}
