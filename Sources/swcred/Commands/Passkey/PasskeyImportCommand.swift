import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredSodium
import SWCredStore

/// `swcred passkey import FILE|- --from playwright|cdp [app options | --origin https://…]` (cli.md
/// "Browser tests"): passkeys a browser test registered or used come back into the store.
///
/// The document is read whole (at most 1 MiB, else 65) and every credential is checked by
/// ``PasskeyImportDocument`` before the store is opened; the RP IDs are then checked under
/// `register`'s association rules and the passkeys written in one transaction
/// (``PasskeyImport``), so one failure writes nothing. Exit: 11/12 association, 50 bad options or
/// `SecurityError`, 65 malformed document, 66 unreadable file.
struct PasskeyImportCommand: StoreSubcommand, SourceSelectingCommand {
    static let configuration = CommandConfiguration.swcred(
        "import", abstract: "Import passkeys from a browser test's Playwright storage state or CDP credentials.",
        discussion: """
            Every credential is checked before anything is written, and all are written in one \
            transaction, or none. A stored passkey is replaced only by a copy whose signCount is not lower.
            """)

    @OptionGroup var storeOptions: GlobalStoreOptions
    @OptionGroup var app: AppOptions
    @OptionGroup var source: SourceOptions

    @Argument(help: ArgumentHelp("The document, or - for standard input.", valueName: "file"))
    var file: String

    @Option(
        help: ArgumentHelp(
            "The document: playwright (storage state) or cdp (WebAuthn.Credential array).",
            valueName: "format"))
    var from: String

    @Option(
        help: ArgumentHelp(
            "Check the RP IDs as a browser page at this origin (default: each as https://<rpId>).", valueName: "origin")
    )
    var origin: String?

    func validate() throws {
        guard PasskeyTransferFormat(rawValue: from) != nil else {
            throw ValidationError("--from must be playwright or cdp")
        }
        if file == "-" && storeOptions.passphraseStdin {
            throw ValidationError(
                "stdin carries the document; give the passphrase with --passphrase-file or --passphrase-fd")
        }
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        do {
            let format = PasskeyTransferFormat(rawValue: from) ?? .playwright
            if origin != nil, app.isGiven {
                throw SWCredError(
                    .invalidParameter, "give either app options (--entitlements/--app-id) or --origin, not both")
            }
            if origin != nil, source.selectedKind != nil {
                throw SWCredError(.invalidParameter, "association sources apply to an app; --origin takes none")
            }
            let browser = try origin.map { (text: String) throws(SWCredError) in
                try RelyingPartyID.Origin(parsing: text)
            }
            let document = try readDocument(format)
            let summary: PasskeyImport.Summary
            if app.isGiven {
                summary = try await SWCAppSession.open(
                    storeOptions: storeOptions, app: app, source: source, console: console, simulator: false
                ).transact { (who: PasskeyCaller, contents: inout StoreContents, now: Date) throws(SWCredError) in
                    try PasskeyImport.apply(document, caller: who, to: &contents, at: now)
                }
            } else {
                summary = try storeOptions.session(console).modify(createIfMissing: true) {
                    (contents: inout StoreContents, now: Date) throws(SWCredError) -> PasskeyImport.Summary in
                    try PasskeyImport.apply(document, caller: browser.map { .browser($0) }, to: &contents, at: now)
                }
            }
            console.emit(summary) {
                console.out(
                    "imported \(summary.passkeys) passkeys (\(summary.from)): \(summary.added) added, "
                        + "\(summary.updated) updated, \(summary.unchanged) unchanged")
            }
            return .success
        } catch let error as SWCredError {
            return reportPasskeyError(error, console: console)
        } catch {
            return reportPasskeyError(
                SWCredError(.internalError, "passkey import failed unexpectedly"), console: console)
        }
    }

    /// Reads and checks the document: at most 1 MiB (more is malformed, 65), an unreadable file 66.
    private func readDocument(_ format: PasskeyTransferFormat) throws(SWCredError) -> PasskeyImportDocument {
        var limits = ImportLimits()
        limits.maxInputBytes = PasskeyImportDocument.maxBytes
        let input: SecureBytes
        do throws(SWCredError) {
            input =
                try file == "-"
                ? CredentialFile.read(descriptor: CommandContext.current.standardInput, limits: limits)
                : CredentialFile.read(path: file, limits: limits)
        } catch {
            switch error.code.kind {
            case .limitExceeded:
                throw SWCredError(.malformedInput, "the document is over \(PasskeyImportDocument.maxBytes) bytes")
            case .ioFailure: throw SWCredError(.fileNotFound, "cannot read \(file == "-" ? "standard input" : file)")
            default: throw error
            }
        }
        var bytes = input.withUnsafeBytes { Array($0) }
        defer { Sodium.memzero(&bytes) }
        return try PasskeyImportDocument(json: bytes, format: format)
    }
}
