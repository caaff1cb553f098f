package import SWCredKit

/// The simulated user of a passkey sheet, as `swcred passkey register|assert` (`--user`, `--pick`)
/// and a `batch` passkey line (`"user"`, `"pick"`) give it: cancel, the first account, or the
/// account named `pick`.
///
/// A name that is not offered answers `choose(-1)`, which the authenticator refuses as
/// NotAllowedError "the chosen passkey is not offered" (exit 44), unlike `cancel` (exit 13).
package struct PasskeyUser: SWCPromptResponder, Hashable {
    /// Whether the user cancels every sheet.
    package var cancels: Bool
    /// `first`, `cancel`, or the user name to pick on the sign-in sheet.
    package var pick: String

    /// Creates the user.
    package init(cancels: Bool, pick: String = "first") {
        self.cancels = cancels
        self.pick = pick
    }

    package func respond(to prompt: SWCPrompt) async -> SWCPromptAnswer {
        answerNow(to: prompt)
    }

    package func answerNow(to prompt: SWCPrompt) -> SWCPromptAnswer {
        if cancels || pick == "cancel" { return .cancel }
        if pick == "first" { return .allow }
        return .choose(prompt.accounts.firstIndex(of: pick) ?? -1)
    }
}
