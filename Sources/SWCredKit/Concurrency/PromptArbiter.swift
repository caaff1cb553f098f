import Synchronization

/// Asks the responder one question and settles it exactly once: with the responder's answer,
/// with `cancel` when the calling task is canceled, or with `cancel` when the optional timeout
/// expires (SWC-3.5). Later answers are ignored.
enum PromptArbiter {
    private final class Slot: Sendable {
        private enum State {
            case idle
            case waiting(CheckedContinuation<SWCPromptAnswer, Never>)
            case settled(SWCPromptAnswer)
            case done
        }
        private let state = Mutex(State.idle)

        func install(_ continuation: CheckedContinuation<SWCPromptAnswer, Never>) {
            let ready = state.withLock { state -> SWCPromptAnswer? in
                if case .settled(let answer) = state {
                    state = .done
                    return answer
                }
                state = .waiting(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }

        func settle(_ answer: SWCPromptAnswer) {
            let continuation = state.withLock { state -> CheckedContinuation<SWCPromptAnswer, Never>? in
                switch state {
                case .idle:
                    state = .settled(answer)
                    return nil
                case .waiting(let continuation):
                    state = .done
                    return continuation
                case .settled, .done:
                    return nil
                }
            }
            continuation?.resume(returning: answer)
        }
    }

    static func ask(
        _ prompt: SWCPrompt, responder: any SWCPromptResponder, timeout: Duration?
    ) async -> SWCPromptAnswer {
        // A task canceled before the prompt is shown answers `cancel` at once.
        if Task.isCancelled { return .cancel }
        let slot = Slot()
        let asking = Task {
            let answer = await responder.respond(to: prompt)
            slot.settle(answer)
        }
        let timer: Task<Void, Never>? = timeout.map { timeout in
            Task {
                do {
                    try await Task.sleep(for: timeout)
                    slot.settle(.cancel)
                } catch {}  // canceled: the prompt was answered first
            }
        }
        let answer = await withTaskCancellationHandler {
            await withCheckedContinuation { slot.install($0) }
        } onCancel: {
            slot.settle(.cancel)
        }
        timer?.cancel()
        if answer == .cancel { asking.cancel() }
        return answer
    }
}
