import Synchronization

/// A responder with one fixed policy: the same answer to every confirmation and a rule for the
/// picker. The CLI's `--user` and `--pick` use it.
public struct SWCPolicyResponder: SWCPromptResponder {
    /// How the picker is answered.
    public enum PickPolicy: Sendable, Hashable {
        /// The first candidate.
        case first
        /// The first candidate with this account; `cancel` when there is none.
        case account(String)
        /// Cancel.
        case cancel
    }

    /// The answer to `ADD`, `UPDATE` and `DELETE`.
    public var confirmation: SWCPromptAnswer
    /// The picker rule.
    public var pick: PickPolicy

    /// Creates a policy responder (defaults: allow, first candidate).
    public init(confirmation: SWCPromptAnswer = .allow, pick: PickPolicy = .first) {
        self.confirmation = confirmation
        self.pick = pick
    }

    public func respond(to prompt: SWCPrompt) async -> SWCPromptAnswer {
        answerNow(to: prompt)
    }

    /// The policy's answer: ``confirmation`` for a confirmation or the passkey save sheet, the
    /// ``pick`` rule for a picker.
    public func answerNow(to prompt: SWCPrompt) -> SWCPromptAnswer {
        guard prompt.kind.isPicker else { return confirmation }
        switch pick {
        case .first:
            return prompt.candidates.isEmpty ? .cancel : .choose(0)
        case .account(let account):
            return prompt.candidates.firstIndex { $0.account == account }.map { .choose($0) } ?? .cancel
        case .cancel:
            return .cancel
        }
    }
}

/// A responder that gives scripted answers in order, then `cancel` once they run out (the
/// answer a device gives when no one is there to tap, SWC-4.5).
public final class SWCScriptedResponder: SWCPromptResponder {
    private let answers: Mutex<[SWCPromptAnswer]>

    /// Creates a responder that answers the prompts with `answers`, in order.
    public init(_ answers: [SWCPromptAnswer]) {
        self.answers = Mutex(answers.reversed())
    }

    /// The answers not used yet.
    public var remaining: Int { answers.withLock { $0.count } }

    public func respond(to prompt: SWCPrompt) async -> SWCPromptAnswer {
        answerNow(to: prompt)
    }

    /// The next scripted answer, or `cancel` once they have run out.
    public func answerNow(to prompt: SWCPrompt) -> SWCPromptAnswer {
        answers.withLock { $0.popLast() } ?? .cancel
    }
}

/// A responder that waits for an answer given from outside (for tests of cancellation and of
/// prompts that are still pending, and for interactive front ends).
///
/// When the asking task is canceled, its prompt is withdrawn and answered `cancel`. A prompt asked
/// without waiting (``SWCPromptResponder/answerNow(to:)``, a passkey sheet) is answered `cancel`.
public final class SWCPendingResponder: SWCPromptResponder {
    private struct Waiter {
        let id: UInt64
        let prompt: SWCPrompt
        let continuation: CheckedContinuation<SWCPromptAnswer, Never>
    }
    private struct State {
        var waiting: [Waiter] = []
        var shown: [SWCPrompt] = []
        var nextID: UInt64 = 0
        var canceledBeforeWaiting: Set<UInt64> = []
    }
    private let state = Mutex(State())

    /// Creates a responder whose prompts wait for ``answer(_:)``.
    public init() {}

    /// Every prompt shown so far.
    public var shown: [SWCPrompt] { state.withLock { $0.shown } }
    /// The number of prompts waiting for an answer.
    public var pendingCount: Int { state.withLock { $0.waiting.count } }

    public func respond(to prompt: SWCPrompt) async -> SWCPromptAnswer {
        let id = state.withLock { state -> UInt64 in
            defer { state.nextID += 1 }
            state.shown.append(prompt)
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let canceled = state.withLock { state -> Bool in
                    if state.canceledBeforeWaiting.remove(id) != nil { return true }
                    state.waiting.append(Waiter(id: id, prompt: prompt, continuation: continuation))
                    return false
                }
                if canceled { continuation.resume(returning: .cancel) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                if let index = state.waiting.firstIndex(where: { $0.id == id }) {
                    return state.waiting.remove(at: index)
                }
                state.canceledBeforeWaiting.insert(id)
                return nil
            }
            waiter?.continuation.resume(returning: .cancel)
        }
    }

    /// Answers the oldest waiting prompt; returns `false` when none is waiting.
    @discardableResult
    public func answer(_ answer: SWCPromptAnswer) -> Bool {
        let waiter = state.withLock { state -> Waiter? in
            state.waiting.isEmpty ? nil : state.waiting.removeFirst()
        }
        waiter?.continuation.resume(returning: answer)
        return waiter != nil
    }

    /// Waits until a prompt is waiting (yielding, with a short sleep between looks), for tests.
    public func waitForPrompt() async {
        while pendingCount == 0 {
            await Task.yield()
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}
