public import SWCredKit
import Synchronization

/// Records every prompt and picker shown, with the answer given, so a team's tests can assert the
/// user experience (which prompts, in which order, offering which candidates).
///
/// It wraps another responder that supplies the answers (scripted answers by default).
///
/// Example:
/// ```swift
/// let user = SWCPromptRecorder(answers: [.allow])
/// // … run the login flow …
/// #expect(user.kinds == [.add])
/// ```
public final class SWCPromptRecorder: SWCPromptResponder {
    /// One prompt shown and the answer the wrapped responder gave.
    public struct Entry: Sendable, Hashable {
        /// The prompt.
        public var prompt: SWCPrompt
        /// The answer, once the wrapped responder has given one (`nil` while the prompt is pending).
        public var answer: SWCPromptAnswer?
    }

    private let inner: any SWCPromptResponder
    private let log = Mutex<[Entry]>([])

    /// Records the prompts that `responder` answers.
    public init(wrapping responder: any SWCPromptResponder) {
        self.inner = responder
    }

    /// Records prompts answered with `answers`, in order, then `cancel`.
    public convenience init(answers: [SWCPromptAnswer]) {
        self.init(wrapping: SWCScriptedResponder(answers))
    }

    public func respond(to prompt: SWCPrompt) async -> SWCPromptAnswer {
        // Recorded when shown, so that a prompt still pending (or abandoned by a canceled task) is seen.
        let index = record(prompt)
        let answer = await inner.respond(to: prompt)
        log.withLock { $0[index].answer = answer }
        return answer
    }

    /// Records `prompt` (a passkey sheet) and the answer the wrapped responder gives at once.
    public func answerNow(to prompt: SWCPrompt) -> SWCPromptAnswer {
        let index = record(prompt)
        let answer = inner.answerNow(to: prompt)
        log.withLock { $0[index].answer = answer }
        return answer
    }

    private func record(_ prompt: SWCPrompt) -> Int {
        log.withLock { log -> Int in
            log.append(Entry(prompt: prompt, answer: nil))
            return log.count - 1
        }
    }

    /// Every prompt shown so far, with its answer, in order.
    public var entries: [Entry] { log.withLock { $0 } }
    /// The prompts shown so far.
    public var prompts: [SWCPrompt] { entries.map(\.prompt) }
    /// The kinds of the prompts shown so far.
    public var kinds: [SWCPrompt.Kind] { entries.map(\.prompt.kind) }
    /// The pickers shown so far.
    public var pickers: [SWCPrompt] { prompts.filter { $0.kind.isPicker } }

    /// Forgets what was recorded.
    public func reset() { log.withLock { $0.removeAll() } }
}
