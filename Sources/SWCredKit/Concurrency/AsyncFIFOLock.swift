import Synchronization

/// An async mutual-exclusion lock that admits holders strictly in the order of their tickets.
///
/// `SharedWebCredentials` runs each operation (checks, prompt, write) as one unit under this lock,
/// in FIFO order (SWC-3.4 Decision). The completion-handler forms take their ticket synchronously,
/// inside the API call, so operations run in call order even though each runs in its own `Task`
/// (tasks do not start in a guaranteed order). An actor would not do: it is re-entrant at every
/// `await`, so a second operation could start while the first waits for its prompt.
///
/// Waiting does not block a thread. Cancellation does not withdraw a ticket: an operation that
/// was called always runs, and its prompts are then answered `cancel` (SWC-3.5).
final class AsyncFIFOLock: Sendable {
    /// A place in the queue; every ticket must be used exactly once with ``withLock(_:_:)``.
    struct Ticket: Sendable {
        fileprivate let number: UInt64
    }

    private struct State {
        var nextTicket: UInt64 = 0
        var serving: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    init() {}

    /// Takes the next place in the queue, synchronously.
    func reserve() -> Ticket {
        state.withLock { state in
            defer { state.nextTicket += 1 }
            return Ticket(number: state.nextTicket)
        }
    }

    /// Runs `body` while holding the lock, taking a ticket now.
    func withLock<T: Sendable>(_ body: () async -> T) async -> T {
        await withLock(reserve(), body)
    }

    /// Runs `body` when `ticket` is served, then serves the next ticket.
    func withLock<T: Sendable>(_ ticket: Ticket, _ body: () async -> T) async -> T {
        await acquire(ticket)
        let result = await body()
        release()
        return result
    }

    private func acquire(_ ticket: Ticket) async {
        let ready = state.withLock { $0.serving == ticket.number }
        if ready { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.serving == ticket.number { return true }
                state.waiters[ticket.number] = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    private func release() {
        // Serve the next ticket; resume its holder (if it is already waiting) outside the mutex.
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.serving += 1
            return state.waiters.removeValue(forKey: state.serving)
        }
        next?.resume()
    }
}
