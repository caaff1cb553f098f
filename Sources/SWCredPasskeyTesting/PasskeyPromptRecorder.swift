public import SWCredPasskeys
import Synchronization

/// Records every passkey sheet shown and the answer given, so a login-flow test can assert what
/// the user saw. Answers come from a script, in order, then `cancel`.
///
/// Example:
/// ```swift
/// let user = PasskeyPromptRecorder(answers: [.allow])
/// // … run the flow with `user.responder` …
/// #expect(user.prompts.map(\.kind) == [.signIn])
/// ```
public final class PasskeyPromptRecorder: Sendable {
    /// One sheet and its answer.
    public struct Entry: Sendable, Hashable {
        public var prompt: PasskeyPrompt
        public var answer: PasskeyDecision
    }

    private let state: Mutex<(answers: [PasskeyDecision], log: [Entry])>

    /// Answers with `answers`, in order, then `cancel`.
    public init(answers: [PasskeyDecision]) {
        state = Mutex((answers: answers, log: []))
    }

    /// The responder to hand to ``PasskeyCredentials``.
    public var responder: PasskeyResponder {
        { [self] prompt in
            state.withLock { state -> PasskeyDecision in
                let answer = state.answers.isEmpty ? .cancel : state.answers.removeFirst()
                state.log.append(Entry(prompt: prompt, answer: answer))
                return answer
            }
        }
    }

    /// Every sheet shown, with its answer.
    public var entries: [Entry] { state.withLock { $0.log } }
    /// The sheets shown.
    public var prompts: [PasskeyPrompt] { entries.map(\.prompt) }
}
