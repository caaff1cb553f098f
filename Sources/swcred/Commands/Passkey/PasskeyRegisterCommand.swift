import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredStore

/// `swcred passkey register OPTIONS|-`.
struct PasskeyRegisterCommand: SWCredSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Create a passkey from PublicKeyCredentialCreationOptionsJSON; prints RegistrationResponseJSON."
    )

    @OptionGroup var formatOptions: FormatOptions
    @OptionGroup var storeOptions: GlobalStoreOptions
    @OptionGroup var caller: PasskeyCallerOptions

    @Argument(help: "The creation options JSON file, or - for stdin.")
    var options: String

    @Option(help: ArgumentHelp("The simulated user's answer: allow (default) or cancel.", valueName: "answer"))
    var user: PasskeyUserOption = .allow

    func execute(_ console: Console) async throws -> ExitStatus {
        do {
            let bytes = try readPasskeyOptions(options, storeOptions: storeOptions)
            let parsed = try PublicKeyCredentialCreationOptions(json: bytes, asApp: caller.origin == nil)
            let answer = PasskeyUser(cancels: user != .allow)
            let response = try await caller.transact(storeOptions: storeOptions, console: console) {
                (who: PasskeyCaller, contents: inout StoreContents, now: Date) throws(SWCredError) -> RegistrationResponse in
                let response = try PasskeyAuthenticator.register(
                    parsed, caller: who, responder: answer, in: &contents, at: now)
                // Debug builds, for the T10/T11 tests: the decrypted store with its keys is in memory here.
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
