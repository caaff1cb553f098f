import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredStore

/// `swcred passkey assert OPTIONS|-`.
struct PasskeyAssertCommand: SWCredSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "assert",
        abstract: "Sign in with a passkey from PublicKeyCredentialRequestOptionsJSON; prints AuthenticationResponseJSON."
    )

    @OptionGroup var formatOptions: FormatOptions
    @OptionGroup var storeOptions: GlobalStoreOptions
    @OptionGroup var caller: PasskeyCallerOptions

    @Argument(help: "The request options JSON file, or - for stdin.")
    var options: String

    @Option(help: ArgumentHelp("The simulated user's answer: allow (default) or cancel.", valueName: "answer"))
    var user: PasskeyUserOption = .allow

    @Option(help: ArgumentHelp("The account chosen in the sheet: first (default), a user name, or cancel.", valueName: "choice"))
    var pick: String = "first"

    func execute(_ console: Console) async throws -> ExitStatus {
        do {
            let bytes = try readPasskeyOptions(options, storeOptions: storeOptions)
            let parsed = try PublicKeyCredentialRequestOptions(json: bytes, asApp: caller.origin == nil)
            let pick = self.pick
            let user = self.user
            let response = try await caller.transact(storeOptions: storeOptions, console: console) {
                (who: PasskeyCaller, contents: inout StoreContents, now: Date) throws(SWCredError) -> AuthenticationResponse in
                let response = try PasskeyAuthenticator.authenticate(
                    parsed, caller: who,
                    responder: PasskeyUser(cancels: user == .cancel, pick: pick),
                    in: &contents, at: now)
                TestPausePoint.pauseIfRequested("passkey-in-transaction")
                return response
            }
            emit(response, console: console)
            return .success
        } catch {
            return reportPasskeyError(error, console: console)
        }
    }
}
