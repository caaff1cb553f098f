import Foundation
import SWCredArtifactsCLI
import SWCredRetrieval
import SWCredRetrievalLive
@testable import SWCredCLI

#if canImport(Glibc)
import Glibc
#endif

/// Runs `swcred` command lines inside the test process: ``SWCred/execute(_:)`` under a
/// ``CommandContext`` of pipes and an environment of the test's own, on a thread of its own (a
/// task executor: the command's blocking work, lock waits and Argon2id, never holds one of Swift's
/// few cooperative threads), while the test awaits it; many tests run side by side.
///
/// What needs a real process stays with ``CLI/spawn(_:stdin:environment:home:currentDirectory:launcher:)``:
/// a launcher (strace), a working directory, the debug pause and crash hooks, signals, inherited
/// descriptors, and what `/proc` says about the process.
enum InProcess {
    /// Runs `arguments` with `stdin` and `environment`; the exit status is what `main` would exit with.
    static func run(_ arguments: [String], stdin: String?, environment: [String: String]) async -> CLI.Result {
        // This process fetches itself, as `swcred-fetch` does: no hand-off to a sibling.
        LiveRetrieval.installHTTPS()
        ArtifactAppReader.install()
        let input = Self.pipe()
        let output = Self.pipe()
        let error = Self.pipe()
        let context = CommandContext(
            standardInput: input.read, standardOutput: output.write, standardError: error.write,
            environment: environment)

        // Feed stdin and drain stdout and stderr on threads of their own, so no pipe fills up.
        let feeder = Thread {
            if let stdin { CommandContext.write(Array(stdin.utf8), to: input.write) }
            close(input.write)
        }
        feeder.start()
        let outBytes = Drain(output.read)
        let errBytes = Drain(error.read)

        let executor = ThreadExecutor()
        let status = await withCheckedContinuation { (finished: CheckedContinuation<ExitStatus, Never>) in
            Task(executorPreference: executor) {
                finished.resume(returning: await CommandContext.$current.withValue(context) { await SWCred.execute(arguments) })
            }
        }
        executor.stop()
        close(output.write)
        close(error.write)
        let out = outBytes.wait()
        let err = errBytes.wait()
        close(input.read)
        return CLI.Result(
            status: status.rawValue, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self), stdoutBytes: out)
    }

    private static func pipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        precondition(Glibc.pipe(&fds) == 0, "pipe failed: errno \(errno)")
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    /// Reads a descriptor to its end on a thread of its own.
    final class Drain: @unchecked Sendable {  // @unchecked: `bytes` is written before `done` signals.
        private var bytes: [UInt8] = []
        private let done = DispatchSemaphore(value: 0)

        init(_ descriptor: Int32) {
            Thread { [self] in
                var chunk = [UInt8](repeating: 0, count: 64 * 1024)
                while true {
                    let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                    if count > 0 {
                        bytes += chunk[0..<count]
                    } else if count < 0 && errno == EINTR {
                        continue
                    } else {
                        break
                    }
                }
                close(descriptor)
                done.signal()
            }.start()
        }

        func wait() -> [UInt8] {
            done.wait()
            return bytes
        }
    }
}

/// A task executor that runs its jobs on one thread of its own, until stopped.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {  // @unchecked: state under `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    init() {
        Thread { [self] in loop() }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        jobs.append(unowned)
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread once the queued jobs have run.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty && stopped {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
