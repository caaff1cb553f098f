import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredSodium
import SWCredStore

/// `swcred import FILE|- [--from …] [--on-conflict fail|skip|update] [--dry-run]` (cli.md).
///
/// The file is read whole into guarded memory (refused from its size first when over the
/// 16 MiB import limit: `limitExceeded`, 27), parsed completely — an invalid row stops here with
/// `malformedInput` (65) naming its line and column, before the store is opened — and then
/// applied in one store transaction, so that either every row is written or none is. A conflict
/// under `--on-conflict fail` (45) or too many items (27) aborts the transaction.
/// `--dry-run` applies the rows to a copy of the store's contents and writes nothing (a missing
/// store counts as empty). The format decisions are in ``CredentialFileFormat`` and
/// ``ImportedSite``; the counting rules in ``CredentialFile/apply(to:onConflict:at:)``.
struct ImportCommand: StoreSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "import",
        abstract: "Import passwords from a Safari, Chrome, Firefox, Bitwarden or 1Password CSV export, or swcred JSON lines.",
        discussion: """
            All rows are written in one transaction, or none. The format is detected from the header \
            unless --from is given. An invalid row names its line and column, never its password.
            """)

    @OptionGroup var storeOptions: GlobalStoreOptions

    @Argument(help: ArgumentHelp("The export file, or - for standard input.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp(
        "The format: auto, safari, chrome, firefox, bitwarden, 1password or jsonl.", valueName: "format"))
    var from = "auto"

    @Option(help: ArgumentHelp(
        "When an item already exists with another password: fail, skip or update.", valueName: "policy"))
    var onConflict = "fail"

    @Flag(help: "Count what would happen; write nothing.")
    var dryRun = false

    func validate() throws {
        if from != "auto" && CredentialFileFormat(rawValue: from) == nil {
            throw ValidationError("--from must be auto, safari, chrome, firefox, bitwarden, 1password or jsonl")
        }
        if ImportConflictPolicy(rawValue: onConflict) == nil {
            throw ValidationError("--on-conflict must be fail, skip or update")
        }
        if file == "-" && storeOptions.passphraseStdin {
            throw ValidationError("stdin carries the export; give the passphrase with --passphrase-file or --passphrase-fd")
        }
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        let policy = ImportConflictPolicy(rawValue: onConflict) ?? .fail
        let input: SecureBytes
        if file == "-" {
            input = try CredentialFile.read(descriptor: CommandContext.current.standardInput)
        } else {
            input = try CredentialFile.read(path: file)
        }
        let parsed = try CredentialFile.parse(input, format: CredentialFileFormat(rawValue: from))
        for (line, reason) in parsed.skipped.prefix(20) {
            console.err("swcred: line \(line) skipped: \(reason)")
        }
        if parsed.skipped.count > 20 { console.err("swcred: … and \(parsed.skipped.count - 20) more rows skipped") }

        let summary = try storeOptions.session(console).importing(parsed, onConflict: policy, dryRun: dryRun)
        console.emit(MergedDocument(summary, ImportRun(format: parsed.format.rawValue, dryRun: dryRun))) {
            console.out(
                "\(dryRun ? "would import" : "imported") \(summary.rows) rows (\(parsed.format.rawValue)): "
                    + "\(summary.added) added, \(summary.updated) updated, \(summary.skipped) skipped, "
                    + "\(summary.unchanged) unchanged")
        }
        return .success
    }
}

/// What `import` adds to the summary's counts: cli.md's
/// `{"schema","format","rows","added","updated","skipped","unchanged","dryRun"}`.
struct ImportRun: Encodable {
    let format: String
    let dryRun: Bool
}
