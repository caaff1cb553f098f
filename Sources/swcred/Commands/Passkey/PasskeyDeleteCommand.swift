import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredStore

/// `swcred passkey delete RPID CREDENTIAL_ID` (the ID base64url).
struct PasskeyDeleteCommand: StoreSubcommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a passkey.")

    @OptionGroup var storeOptions: GlobalStoreOptions

    @Argument(help: "The RP ID.")
    var rpID: String

    @Argument(help: "The credential ID, base64url.")
    var credentialID: String

    func execute(_ console: Console) async throws -> ExitStatus {
        guard let id = Base64URL.decode(credentialID), !id.isEmpty else {
            throw SWCredError(.invalidParameter, "the credential ID is not base64url")
        }
        let rp = HostName.lowercasedASCII(rpID)
        let removed = try storeOptions.session(console).modify(createIfMissing: false) {
            (contents: inout StoreContents, _: Date) throws(SWCredError) -> PasskeyListing in
            PasskeyListing(try contents.deletePasskey(rpID: rp, credentialID: id))
        }
        console.emit(PasskeyDeleteResult(operation: "deleted", passkey: removed)) {
            console.out("deleted the passkey of \(removed.userName) for \(removed.rpID)")
        }
        return .success
    }
}

extension PasskeyDeleteCommand {
    /// The options of `passkey delete` that take a separate value (`--format json`).
    static let valueTakingOptions: Set<String> = [
        "--format", "--store", "--key-file", "--passphrase-file", "--passphrase-fd", "--lock-timeout",
    ]
    /// Its flags.
    static let flagOptions: Set<String> = ["--passphrase-stdin", "--allow-rollback", "--version", "--help", "-h"]

    /// argv (without the program name) with a credential ID that starts with `-` placed after `--`.
    ///
    /// base64url's alphabet includes `-`, so one credential ID in 64 starts with it, and
    /// ArgumentParser reads such a token as options: `-AbCh…` as a pack of short options with
    /// `-h` in it (it printed the help and exited 0, deleting nothing), others as an unknown
    /// option (64). For `passkey delete` a token that starts with `-` and is none of the command's
    /// options (`--name` or `--name=value`) is a positional; the positionals move, in order, behind
    /// a `--` after the options, so `delete RPID -AbC… --format json` means what it says. Any
    /// other argv is returned unchanged, and so is one that already has a `--`.
    static func protectingDashedCredentialID(_ arguments: [String]) -> [String] {
        guard arguments.count > 2, arguments[0] == "passkey", arguments[1] == "delete", !arguments.contains("--") else {
            return arguments
        }
        var options: [String] = []
        var positionals: [String] = []
        var moved = false
        var rest = arguments.dropFirst(2)[...]
        while let token = rest.popFirst() {
            let name = token.split(separator: "=", maxSplits: 1).first.map(String.init) ?? token
            if valueTakingOptions.contains(name) {
                options.append(token)
                if name == token, let value = rest.popFirst() { options.append(value) }
            } else if flagOptions.contains(token) {
                options.append(token)
            } else {
                positionals.append(token)
                if token.hasPrefix("-"), token != "-" { moved = true }
            }
        }
        guard moved else { return arguments }
        return ["passkey", "delete"] + options + ["--"] + positionals
    }
}

struct PasskeyDeleteResult: Encodable {
    let operation: String
    let passkey: PasskeyListing
}
