#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials
import CSWCredSys

/// Process-wide hardening for a program that handles secrets (store.md §8, "Core dumps"). Named
/// apart from the library's `SWCredStore.ProcessHardening`, which has no test switch.
///
/// At start-up `swcred` sets `RLIMIT_CORE` to 0 (soft and hard) and marks itself non-dumpable
/// with `prctl(PR_SET_DUMPABLE, 0)` through `CSWCredSys`. A non-dumpable process writes no core
/// file, and same-user processes can neither attach to it with ptrace nor read its procfs
/// `environ` or `mem`. The library never changes process-wide state; the executable does it here.
///
/// Debug builds only: `SWCRED_TEST_KEEP_DUMPABLE=1` skips the `prctl` step so that a test can
/// read the process's procfs `environ` (store.md T10 says that read runs with the hardening
/// switched off, because the hardening itself is what hides `environ`). Release builds ignore it.
enum StartupHardening {
    /// What ``apply()`` achieved.
    struct Outcome: Sendable, Equatable {
        /// `RLIMIT_CORE` is now 0 (soft and hard).
        var coreLimitZero: Bool
        /// `PR_GET_DUMPABLE` now returns 0.
        var nonDumpable: Bool
    }

    /// Applies both steps. Failures are not fatal (a platform may lack `prctl`), but are returned
    /// so that the caller can warn.
    @discardableResult
    static func apply() -> Outcome {
        var limit = rlimit(rlim_cur: 0, rlim_max: 0)
        #if canImport(Glibc)
        let coreOK = setrlimit(Int32(RLIMIT_CORE.rawValue), &limit) == 0
        #else
        let coreOK = setrlimit(RLIMIT_CORE, &limit) == 0
        #endif
        var dumpableOK = false
        if keepDumpableForTests {
            dumpableOK = false
        } else {
            dumpableOK = cswcred_sys_set_nondumpable() == 0
        }
        return Outcome(coreLimitZero: coreOK, nonDumpable: dumpableOK)
    }

    /// The current state, read back from the kernel (`getrlimit`, `PR_GET_DUMPABLE`).
    static func current() -> Outcome {
        var limit = rlimit()
        #if canImport(Glibc)
        let got = getrlimit(Int32(RLIMIT_CORE.rawValue), &limit) == 0
        #else
        let got = getrlimit(RLIMIT_CORE, &limit) == 0
        #endif
        let coreZero = got && limit.rlim_cur == 0 && limit.rlim_max == 0
        return Outcome(coreLimitZero: coreZero, nonDumpable: cswcred_sys_get_dumpable() == 0)
    }

    /// Debug-only test switch; always `false` in release builds.
    private static var keepDumpableForTests: Bool {
        #if DEBUG
        return ProcessInfo.processInfo.environment["SWCRED_TEST_KEEP_DUMPABLE"] == "1"
        #else
        return false
        #endif
    }
}

/// A debug-only pause point for process-level tests (store.md T10, T11).
///
/// When `SWCRED_TEST_CLI_PAUSE=<path>` is set in a debug build, ``pauseIfRequested(_:)`` writes a
/// small JSON report to `<path>` (the process id, the pause point's name, `RLIMIT_CORE` and
/// `PR_GET_DUMPABLE` as read back from the kernel), then waits until `<path>.go` exists (at most
/// 30 seconds) so that the test can read `/proc/<pid>/cmdline`, `environ` and `limits` while the
/// secret is held in memory. Release builds compile this to nothing.
enum TestPausePoint {
    static func pauseIfRequested(_ name: String) {
        #if DEBUG
        guard let path = ProcessInfo.processInfo.environment["SWCRED_TEST_CLI_PAUSE"], !path.isEmpty else { return }
        var limit = rlimit()
        #if canImport(Glibc)
        _ = getrlimit(Int32(RLIMIT_CORE.rawValue), &limit)
        #else
        _ = getrlimit(RLIMIT_CORE, &limit)
        #endif
        let report = """
            {"pid":\(getpid()),"point":"\(name)","coreSoft":\(limit.rlim_cur),"coreHard":\(limit.rlim_max),\
            "dumpable":\(cswcred_sys_get_dumpable())}
            """
        let temporary = path + ".tmp"
        _ = FileManager.default.createFile(atPath: temporary, contents: Data(report.utf8))
        _ = rename(temporary, path)
        let go = path + ".go"
        for _ in 0..<3000 {
            if access(go, F_OK) == 0 { return }
            usleep(10_000)
        }
        #endif
    }
}
