import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredStore

/// `swcred passkey assert OPTIONS|-`.
struct PasskeyAssertCommand: PasskeyCallCommand {
    static let configuration = CommandConfiguration.swcred(
        "assert",
        abstract: "Sign in with a passkey from PublicKeyCredentialRequestOptionsJSON; prints AuthenticationResponseJSON.")

    @OptionGroup var caller: PasskeyCallerOptions

    @Argument(help: "The request options JSON file, or - for stdin.")
    var options: String

    @Option(help: ArgumentHelp("The account chosen in the sheet: first (default), a user name, or cancel.", valueName: "choice"))
    var pick: String = "first"

    func execute(_ console: Console) async throws -> ExitStatus {
        let answer = PasskeyUser(cancels: caller.user == .cancel, pick: pick)
        return await caller.respond(to: options, console: console) {
            (parsed: PublicKeyCredentialRequestOptions, who: PasskeyCaller, contents: inout StoreContents, now: Date)
                throws(SWCredError) -> AuthenticationResponse in
            try PasskeyAuthenticator.authenticate(parsed, caller: who, responder: answer, in: &contents, at: now)
        }
    }
}
