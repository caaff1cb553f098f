import Dispatch
import Synchronization

/// A task executor that runs its jobs on the thread that calls ``run()``, one at a time, in the
/// order they come.
///
/// `swcred`'s commands are async (the root command is an `AsyncParsableCommand`), and an async
/// function that is not isolated to an actor runs on Swift's global concurrent executor, whose
/// first job starts libdispatch's worker threads: about 1 ms of CPU at every start, a fifth of
/// `swcred --version` (issue 22). A task that prefers this executor runs its nonisolated async
/// code, and its child tasks', on the main thread instead, so a command that never waits for
/// anything starts no thread. Work that must leave the thread still does: unstructured `Task {}`
/// and `DispatchQueue.global()` run elsewhere and resume the task here.
@available(macOS 15.0, *)
final class CurrentThreadExecutor: TaskExecutor, Sendable {
    private let jobs = Mutex<[UnownedJob]>([])
    private let ready = DispatchSemaphore(value: 0)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        ready.signal()
    }

    /// Runs jobs as they come, for ever: the task it serves ends the process (`exit`).
    func run() -> Never {
        while true {
            ready.wait()
            let job = jobs.withLock { $0.removeFirst() }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
