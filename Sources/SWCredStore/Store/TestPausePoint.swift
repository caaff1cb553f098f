#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials
import CSWCredSys

/// A debug-only pause point for process-level tests (store.md T10, T11).
///
/// When `SWCRED_TEST_CLI_PAUSE=<path>` is set in a debug build, ``pauseIfRequested(_:)`` writes a
/// small JSON report to `<path>` (the process id, the pause point's name, `RLIMIT_CORE` and
/// `PR_GET_DUMPABLE` as read back from the kernel), then waits until `<path>.go` exists (at most
/// 30 seconds) so that the test can read `/proc/<pid>/cmdline`, `environ` and `limits` while the
/// secret is held in memory. Release builds compile this to nothing.
package enum TestPausePoint {
    package static func pauseIfRequested(_ name: String) {
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
