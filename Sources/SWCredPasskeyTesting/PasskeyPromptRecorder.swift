public import SWCredKit
import Synchronization

/// Records every passkey sheet shown and the answer given, so a login-flow test can assert what
/// the user saw. Answers come from a script, in order, then `cancel`.
///
/// It is an ``SWCPromptResponder`` like every other simulated user: hand it to
/// `PasskeyCredentials` (or to `SharedWebCredentials`, whose prompts it records the same way).
///
/// Example:
/// ```swift
/// let user = PasskeyPromptRecorder(answers: [.allow])
/// // … run the flow with `responder: user` …
/// #expect(user.prompts.map(\.kind) == [.signInWithPasskey])
/// ```
public final class PasskeyPromptRecorder: SWCPromptResponder {
    /// One sheet and its answer.
    public struct Entry: Sendable, Hashable {
        public var prompt: SWCPrompt
        public var answer: SWCPromptAnswer
    }

    private let state: Mutex<(answers: [SWCPromptAnswer], log: [Entry])>

    /// Answers with `answers`, in order, then `cancel`.
    public init(answers: [SWCPromptAnswer]) {
        state = Mutex((answers: answers, log: []))
    }

    /// The recorder itself, for code written when the responder was a closure.
    @available(*, deprecated, message: "pass the recorder itself")
    public var responder: any SWCPromptResponder { self }

    public func respond(to prompt: SWCPrompt) async -> SWCPromptAnswer {
        answerNow(to: prompt)
    }

    /// The next scripted answer (or `cancel`), recorded with `prompt`.
    public func answerNow(to prompt: SWCPrompt) -> SWCPromptAnswer {
        state.withLock { state -> SWCPromptAnswer in
            let answer = state.answers.isEmpty ? .cancel : state.answers.removeFirst()
            state.log.append(Entry(prompt: prompt, answer: answer))
            return answer
        }
    }

    /// Every sheet shown, with its answer.
    public var entries: [Entry] { state.withLock { $0.log } }
    /// The sheets shown.
    public var prompts: [SWCPrompt] { entries.map(\.prompt) }
}
