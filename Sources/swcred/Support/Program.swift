/// The entry point of the two executables that run swcred's commands (their `main.swift`):
/// `swcred`, without network code, and `swcred-fetch`, the same commands with HTTPS retrieval
/// installed, to which `swcred` hands the commands that fetch (``NetworkHandOff``).
package enum SWCredProgram {
    /// Runs the process's command line and exits with its status, on Swift's global executor
    /// (`swcred-fetch`: the HTTPS retrievals of one command run side by side).
    package static func main() async {
        await SWCred.main()
    }

    /// Runs the process's command line on the calling (main) thread and exits with its status:
    /// `swcred`, whose commands do their work one step after another, so that starting one
    /// starts no dispatch worker thread (``CurrentThreadExecutor``; about 1 ms of CPU per
    /// command). Call it from synchronous code that is not waiting for the main actor.
    @available(macOS 15.0, *)
    package static func mainOnCurrentThread() -> Never {
        let executor = CurrentThreadExecutor()
        Task(executorPreference: executor) { await SWCred.main() }
        executor.run()
    }
}
