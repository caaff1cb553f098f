import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredStore

/// `swcred passkey register|assert|list|delete|export|import` (cli.md `passkey`, "Browser tests";
/// PasskeyDecisions.md).
struct PasskeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passkey",
        abstract: "Register and use passkeys governed by the webcredentials association.",
        discussion: HelpExamples.discussion("passkey", """
            register reads PublicKeyCredentialCreationOptionsJSON and prints RegistrationResponseJSON; \
            assert reads PublicKeyCredentialRequestOptionsJSON and prints AuthenticationResponseJSON. \
            As an app (--entitlements/--app-id) the RP ID must be covered by an active, approved \
            webcredentials entry; as a browser (--origin) it must be the origin's host or a registrable \
            suffix. export and import hand passkeys to and from browser tests (Playwright storage \
            state, CDP WebAuthn.Credential). Exit codes: 11/12 association, 13 canceled, 29 keys to a \
            terminal, 44 no passkey, 45 excludeCredentials, 50 bad options, 65 malformed JSON, 66 \
            unreadable file, 74 output exists.
            """),
        subcommands: [
            PasskeyRegisterCommand.self, PasskeyAssertCommand.self, PasskeyListCommand.self, PasskeyDeleteCommand.self,
            PasskeyExportCommand.self, PasskeyImportCommand.self,
        ]
    )
}
