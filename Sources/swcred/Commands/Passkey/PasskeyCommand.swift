import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredStore

/// `swcred passkey register|assert|list|delete` (cli.md `passkey`; PasskeyDecisions.md).
struct PasskeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passkey",
        abstract: "Register and use passkeys governed by the webcredentials association.",
        discussion: HelpExamples.discussion("passkey", """
            register reads PublicKeyCredentialCreationOptionsJSON and prints RegistrationResponseJSON; \
            assert reads PublicKeyCredentialRequestOptionsJSON and prints AuthenticationResponseJSON. \
            As an app (--entitlements/--app-id) the RP ID must be covered by an active, approved \
            webcredentials entry; as a browser (--origin) it must be the origin's host or a registrable \
            suffix. Exit codes: 11/12 association, 13 canceled, 44 no passkey, 45 excludeCredentials, \
            50 bad options, 65 malformed JSON.
            """),
        subcommands: [PasskeyRegisterCommand.self, PasskeyAssertCommand.self, PasskeyListCommand.self, PasskeyDeleteCommand.self]
    )
}
