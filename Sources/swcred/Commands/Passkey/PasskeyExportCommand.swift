import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredPasskeys
import SWCredSodium
import SWCredStore

/// `swcred passkey export --to playwright|cdp [--rp-id RP] [-o FILE] [--force]` (cli.md "Browser
/// tests"): the store's passkeys, private keys included, as a browser test takes them. The
/// document is ``PasskeyExportDocument``'s; this command only decides where it may go: `-o FILE`
/// created 0600 and never overwritten without `--force` (74), stdout only when it is not a
/// terminal (29). The encoded document is wiped after it is written.
struct PasskeyExportCommand: StoreSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "export",
        abstract: "Export passkeys with their private keys for a browser test (Playwright storage state or CDP).",
        discussion: """
            The output holds private keys: -o FILE is created with mode 0600 and never overwritten \
            without --force; stdout is used only when it is not a terminal.
            """)

    @OptionGroup var storeOptions: GlobalStoreOptions

    @Option(
        help: ArgumentHelp(
            "The document: playwright (storage state) or cdp (WebAuthn.Credential array).",
            valueName: "format"))
    var to: String

    @Option(name: .customLong("rp-id"), help: ArgumentHelp("Only the passkeys of this RP ID.", valueName: "rp-id"))
    var rpID: String?

    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp("Write to this file (created 0600) instead of stdout.", valueName: "path"))
    var output: String?

    @Flag(help: "Replace an existing output file (it ends with mode 0600).")
    var force = false

    func validate() throws {
        guard PasskeyTransferFormat(rawValue: to) != nil else {
            throw ValidationError("--to must be playwright or cdp")
        }
        if force && output == nil { throw ValidationError("--force needs -o FILE") }
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        let format = PasskeyTransferFormat(rawValue: to) ?? .playwright
        try SecretDocumentOutput.refuseTerminal(output: output, what: "private keys")
        let rp = rpID.map { HostName.lowercasedASCII($0) }
        let passkeys = try storeOptions.session(console).read().contents.passkeys
            .filter { rp == nil || $0.rpID == rp }
        var bytes = try PasskeyExportDocument.encode(passkeys, as: format)
        defer { Sodium.memzero(&bytes) }
        try SecretDocumentOutput.deliver(bytes, to: output, force: force) { output in
            console.emit(PasskeyExportResult(format: format.rawValue, passkeys: passkeys.count, output: output)) {
                console.err("swcred: exported \(passkeys.count) passkeys to \(output) (\(format.rawValue))")
            }
        }
        return .success
    }
}

/// `--format json` with `-o`: `{"schema","format","passkeys","output"}`.
struct PasskeyExportResult: Encodable {
    let format: String
    let passkeys: Int
    let output: String
}
