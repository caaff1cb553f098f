import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredStore

/// `swcred passkey list [RPID]`: passkeys, never key material.
struct PasskeyListCommand: StoreSubcommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List passkeys (never key material).")

    @OptionGroup var storeOptions: GlobalStoreOptions

    @Argument(help: "Only passkeys of this RP ID.")
    var rpID: String?

    func execute(_ console: Console) async throws -> ExitStatus {
        let filter = rpID.map { HostName.lowercasedASCII($0) }
        let passkeys = try storeOptions.session(console).read().contents.passkeys
            .filter { filter == nil || $0.rpID == filter }.map(PasskeyListing.init)
        console.emit(PasskeyListResult(passkeys: passkeys)) {
            for passkey in passkeys { console.out("\(passkey.rpID)\t\(passkey.userName)\t\(passkey.credentialID)") }
        }
        return .success
    }
}

struct PasskeyListResult: Encodable {
    let passkeys: [PasskeyListing]
}
