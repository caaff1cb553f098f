import SWCredCore
#if canImport(Glibc)
import Glibc
#endif

/// Pause points on the write path, for crash tests (spec/store.md T4).
///
/// In debug builds, `SWCRED_TEST_HOOK=<point>[,<point>…]` makes a process that reaches the point
/// print `swcred-test-hook: <point> <pid>` on stderr and then act according to
/// `SWCRED_TEST_HOOK_ACTION`: `stop` (the default; `raise(SIGSTOP)`, so a test can `kill -9` it
/// at exactly that point), `sleep:<seconds>`, or `exit:<status>` (`_exit`, no cleanup: a crash).
/// Release builds compile none of this.
package enum TestHookPoint: String, Sendable, CaseIterable {
    /// The temporary file is written but not yet synced.
    case afterTempWrite = "after-temp-write"
    /// The temporary file is synced and closed.
    case afterFsync = "after-fsync"
    /// The temporary file has replaced the keychain file.
    case afterRename = "after-rename"
    /// Just before the directory `fsync`.
    case beforeDirsync = "before-dirsync"
    /// The lock is held (after it was taken, before the read).
    case afterLock = "after-lock"
}

enum TestHooks {
    static func reach(_ point: TestHookPoint, options: StoreOptions) {
        #if DEBUG
        if let hook = options.testHook {
            hook(point)
            return
        }
        guard let raw = getenv("SWCRED_TEST_HOOK") else { return }
        let wanted = String(cString: raw).split(separator: ",").map { String($0) }
        guard wanted.contains(point.rawValue) else { return }
        var line = Array("swcred-test-hook: \(point.rawValue) \(getpid())\n".utf8)
        line.withUnsafeMutableBytes { if let base = $0.baseAddress { _ = write(2, base, $0.count) } }
        let action = getenv("SWCRED_TEST_HOOK_ACTION").map { String(cString: $0) } ?? "stop"
        if action.hasPrefix("sleep:"), let seconds = UInt32(action.dropFirst(6)) {
            sleep(seconds)
        } else if action.hasPrefix("exit:"), let status = Int32(action.dropFirst(5)) {
            _exit(status)
        } else {
            raise(SIGSTOP)
        }
        #endif
    }
}
