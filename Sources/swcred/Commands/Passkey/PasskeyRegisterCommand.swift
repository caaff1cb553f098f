import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredStore

/// `swcred passkey register OPTIONS|-`.
struct PasskeyRegisterCommand: PasskeyCallCommand {
    static let configuration = CommandConfiguration.swcred(
        "register",
        abstract: "Create a passkey from PublicKeyCredentialCreationOptionsJSON; prints RegistrationResponseJSON.")

    @OptionGroup var caller: PasskeyCallerOptions

    @Argument(help: "The creation options JSON file, or - for stdin.")
    var options: String

    func execute(_ console: Console) async throws -> ExitStatus {
        let answer = PasskeyUser(cancels: caller.user != .allow)
        return await caller.respond(to: options, console: console) {
            (parsed: PublicKeyCredentialCreationOptions, who: PasskeyCaller, contents: inout StoreContents, now: Date)
                throws(SWCredError) -> RegistrationResponse in
            try PasskeyAuthenticator.register(parsed, caller: who, responder: answer, in: &contents, at: now)
        }
    }
}
