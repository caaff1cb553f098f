#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials
import CSWCredSys

/// Process-wide hardening for a program that handles secrets (store.md §8, "Core dumps"): the
/// explicit call the library offers; the library never makes it on its own.
///
/// At start-up `swcred` and `swcred-fetch` set `RLIMIT_CORE` to 0 (soft and hard) and mark
/// themselves non-dumpable with `prctl(PR_SET_DUMPABLE, 0)` through `CSWCredSys`. A non-dumpable process writes no core
/// file, and same-user processes can neither attach to it with ptrace nor read its procfs
/// `environ` or `mem`.
///
/// Debug builds only: `SWCRED_TEST_KEEP_DUMPABLE=1` skips the `prctl` step so that a test can
/// read the process's procfs `environ` (store.md T10 says that read runs with the hardening
/// switched off, because the hardening itself is what hides `environ`). Release builds ignore it.
package enum ProcessHardening {
    /// What ``apply()`` achieved.
    package struct Outcome: Sendable, Equatable {
        /// `RLIMIT_CORE` is now 0 (soft and hard).
        package var coreLimitZero: Bool
        /// `PR_GET_DUMPABLE` now returns 0.
        package var nonDumpable: Bool
    }

    /// Applies both steps. Failures are not fatal (a platform may lack `prctl`), but are returned
    /// so that the caller can warn.
    @discardableResult
    package static func apply() -> Outcome {
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
    package static func current() -> Outcome {
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
