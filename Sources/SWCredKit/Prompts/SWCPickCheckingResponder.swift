package import SWCredCore
import Synchronization

/// A ``SWCPolicyResponder`` that remembers a picker choice it could not make: `--pick ACCOUNT`
/// when the picker offered no such account. The policy still answers `cancel` there (what the
/// simulated user can do), but a script asked for something that does not exist, which is a usage
/// error, not a user who canceled: ``checkChoice()`` says so after the call.
package final class SWCPickCheckingResponder: SWCPromptResponder {
    /// The policy that answers.
    package let policy: SWCPolicyResponder
    /// The accounts a picker offered when the chosen account was not among them.
    private let unmet = Mutex<[String]?>(nil)

    package init(_ policy: SWCPolicyResponder) {
        self.policy = policy
    }

    package func respond(to prompt: SWCPrompt) async -> SWCPromptAnswer {
        answerNow(to: prompt)
    }

    package func answerNow(to prompt: SWCPrompt) -> SWCPromptAnswer {
        if prompt.kind.isPicker, case .account(let account) = policy.pick,
            !prompt.candidates.contains(where: { $0.account == account })
        {
            let offered = prompt.candidates.map(\.account)
            unmet.withLock { $0 = offered }
        }
        return policy.answerNow(to: prompt)
    }

    /// Throws when a picker was answered `cancel` only because the chosen account was not offered.
    /// - Throws: `usage` (exit 64) naming the accounts the picker offered (account names, never
    ///   passwords).
    package func checkChoice() throws(SWCredError) {
        guard let offered = unmet.withLock({ $0 }), case .account(let account) = policy.pick else { return }
        let list = offered.isEmpty ? "none" : offered.map { "'\($0)'" }.joined(separator: ", ")
        throw SWCredError(
            .usage, "--pick '\(account)' names no account the picker offered (it offered: \(list)); "
                + "give one of them, first or cancel")
    }
}
