import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredStore

/// `swcred passkey list [RPID]`: passkeys, never key material.
struct PasskeyListCommand: SWCredSubcommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List passkeys (never key material).")

    @OptionGroup var formatOptions: FormatOptions
    @OptionGroup var storeOptions: GlobalStoreOptions

    @Argument(help: "Only passkeys of this RP ID.")
    var rpID: String?

    func execute(_ console: Console) async throws -> ExitStatus {
        let filter = rpID.map { HostName.lowercasedASCII($0) }
        let passkeys = try storeOptions.session(console).read().contents.passkeys
            .filter { filter == nil || $0.rpID == filter }.map(ListedPasskey.init)
        switch console.format {
        case .json: console.emitJSON(PasskeyListResult(passkeys: passkeys))
        case .text:
            for passkey in passkeys { console.out("\(passkey.rpID)\t\(passkey.userName)\t\(passkey.credentialID)") }
        }
        return .success
    }
}

/// One passkey as `list` prints it.
struct ListedPasskey: Encodable, Sendable {
    let rpID: String
    let credentialID: String
    let userHandle: String
    let userName: String
    let displayName: String
    let created: Date
    let lastUsed: Date

    init(_ item: PasskeyItem) {
        rpID = item.rpID
        credentialID = Base64URL.encode(item.credentialID)
        userHandle = Base64URL.encode(item.userHandle)
        userName = item.userName
        displayName = item.displayName
        created = item.creationDate
        lastUsed = item.lastUsedDate
    }
}

struct PasskeyListResult: Encodable {
    let passkeys: [ListedPasskey]
}
