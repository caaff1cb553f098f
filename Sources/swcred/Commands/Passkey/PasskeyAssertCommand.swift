import ArgumentParser
import Foundation
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
        let (pick, user) = (self.pick, caller.user)
        return await caller.respond(to: options, console: console) {
            (parsed: PublicKeyCredentialRequestOptions, who: PasskeyCaller, contents: inout StoreContents, now: Date)
                throws(SWCredError) -> AuthenticationResponse in
            try PasskeyAuthenticator.authenticate(
                parsed, caller: who,
                responder: { prompt in
                    if user == .cancel || pick == "cancel" { return .cancel }
                    if pick == "first" { return .allow }
                    // A user name not offered: the choice cannot be made (NotAllowedError, 44).
                    return .choose(prompt.userNames.firstIndex(of: pick) ?? -1)
                },
                in: &contents, at: now)
        }
    }
}
