public import SWCredCore
import CSWCredSys
#if canImport(Glibc)
import Glibc
#endif

/// Process-wide hardening against core dumps and same-user inspection (spec/store.md §8).
///
/// The library never changes process-wide state on its own; the `swcred` executable calls
/// ``disableCoreDumps()`` at start-up.
public enum ProcessHardening {
    /// Sets `RLIMIT_CORE` to 0 and marks the process non-dumpable (`prctl(PR_SET_DUMPABLE, 0)`),
    /// which also stops same-user ptrace and procfs reads of its memory and environment.
    /// - Throws: `ioFailure` naming the call that failed.
    public static func disableCoreDumps() throws(SWCredError) {
        var limit = rlimit(rlim_cur: 0, rlim_max: 0)
        if setrlimit(Int32(RLIMIT_CORE.rawValue), &limit) != 0 {
            // The hard limit may already be lower than what we ask; only the soft limit matters.
            var current = rlimit()
            getrlimit(Int32(RLIMIT_CORE.rawValue), &current)
            current.rlim_cur = 0
            if setrlimit(Int32(RLIMIT_CORE.rawValue), &current) != 0 {
                throw POSIX.ioFailure("setrlimit(RLIMIT_CORE)", errno: errno)
            }
        }
        if cswcred_sys_set_nondumpable() != 0, errno != ENOSYS {
            throw POSIX.ioFailure("prctl(PR_SET_DUMPABLE)", errno: errno)
        }
    }

    /// `prctl(PR_GET_DUMPABLE)`: `true`/`false`, or `nil` where unavailable.
    public static var isDumpable: Bool? {
        let value = cswcred_sys_get_dumpable()
        return value < 0 ? nil : value != 0
    }
}
