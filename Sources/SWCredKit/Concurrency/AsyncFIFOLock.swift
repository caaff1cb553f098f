import Synchronization

/// An async mutual-exclusion lock that admits waiters strictly in arrival order.
///
/// `SharedWebCredentials` runs each operation (checks, prompt, write) as one unit under this lock,
/// in FIFO order (SWC-3.4 Decision). An actor would not do: it is re-entrant at every `await`, so
/// a second operation could start while the first waits for its prompt. Waiting does not block a
/// thread. Cancellation does not remove a waiter: an operation that was called always runs, and
/// its prompts are then answered `cancel` (SWC-3.5).
final class AsyncFIFOLock: Sendable {
    private struct State {
        var locked = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var head = 0

        mutating func popWaiter() -> CheckedContinuation<Void, Never>? {
            guard head < waiters.count else { return nil }
            let waiter = waiters[head]
            head += 1
            if head > 64, head * 2 > waiters.count {
                waiters.removeFirst(head)
                head = 0
            }
            return waiter
        }
    }

    private let state = Mutex(State())

    init() {}

    /// Runs `body` while holding the lock.
    func withLock<T: Sendable>(_ body: () async -> T) async -> T {
        await acquire()
        let result = await body()
        release()
        return result
    }

    private func acquire() async {
        // Fast path: the lock is free.
        let acquired = state.withLock { state -> Bool in
            if state.locked { return false }
            state.locked = true
            return true
        }
        if acquired { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if !state.locked {
                    state.locked = true
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    private func release() {
        // Hand the lock to the oldest waiter (it stays locked), or unlock; resume outside the mutex.
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.popWaiter() { return waiter }
            state.locked = false
            return nil
        }
        next?.resume()
    }
}
