import SWCredCore
import SWCredSodium
#if canImport(Glibc)
import Glibc
#endif

/// The local rollback high-water mark (spec/store.md §5).
///
/// One file per store id in the state directory, `<store id hex>.state`, 40 bytes: the highest
/// generation seen (u64 little-endian) and a BLAKE2b-256 MAC keyed with sub-key 3 over
/// `swcred-state-v1`, the store id and the generation. Updates take an exclusive `flock` on
/// `<store id hex>.state.lock` and write the maximum of the stored and the new value, through the
/// same temporary-file-and-rename path as the keychain, so that a reader sees the old or the new
/// entry, never a torn one.
///
/// **Decision (issue 13): the mark is not `fsync`ed.** The keychain file itself is (store.md §6
/// steps 7 and 10: a write never reports success before it is durable). The mark is a guard
/// against a restored copy, not data: after a power failure it can lag behind the keychain by
/// the generations written just before, and a lost entry is re-anchored with a warning (as a
/// missing one is trusted on first use). In exchange every write saves two `fsync`s, measured at
/// 4.7 ms and 1.9 ms of a 60 ms `swcred add` on this project's machine. store.md §5 asks for the
/// update after the keychain's directory `fsync`, which still holds.
///
/// Limits of the promise: this catches a restored or re-synced old copy of the data directory;
/// it does not stop an attacker who can also edit the state directory.
struct RollbackState {
    enum Mark: Equatable {
        /// The store has rollback protection off: no mark was read, none is written.
        case off
        case missing
        case valid(UInt64)
        case unverifiable
    }

    let directory: String
    let storeID: [UInt8]

    var path: String { directory + "/" + POSIX.hex(storeID) + ".state" }
    var lockPath: String { path + ".lock" }

    private func mac(_ generation: UInt64, key: SecureBytes) throws(SWCredError) -> [UInt8] {
        var w = ByteWriter()
        w.raw(Array("swcred-state-v1".utf8))
        w.raw(storeID)
        w.u64(generation)
        return try BLAKE2b.hash(w.bytes, key: key)
    }

    /// Reads the mark (no lock: the file is replaced by rename).
    func read(key: SecureBytes) throws(SWCredError) -> Mark {
        guard let fd = try POSIX.openIfExists(path, O_RDONLY | O_CLOEXEC, step: "state file: read") else {
            return .missing
        }
        defer { POSIX.closeQuietly(fd) }
        let bytes = try POSIX.read(fd, upTo: 41, step: "state file: read")
        guard bytes.count == 40 else { return .unverifiable }
        var r = ByteReader(bytes, errorCode: .ioFailure)
        let generation = try r.u64()
        let stored = Array(try r.take(32))
        return Sodium.constantTimeEqual(try mac(generation, key: key), stored) ? .valid(generation) : .unverifiable
    }

    /// Raises the mark to `generation` (or re-anchors it there when `force`), under the state lock.
    func record(_ generation: UInt64, key: SecureBytes, force: Bool, options: StoreOptions) throws(SWCredError) {
        try StorePaths.makeDirectory(directory)
        let lock = try FileLock.acquire(
            path: lockPath, timeout: options.lockTimeout, what: "the rollback state", label: "state file"
        )
        defer { lock.release() }
        if !force, case .valid(let current) = try read(key: key), current >= generation { return }
        var w = ByteWriter(capacity: 40)
        w.u64(generation)
        w.raw(try mac(generation, key: key))
        var quiet = options
        quiet.testHook = { _ in }
        // Decision (issue 13): the mark is replaced atomically but not fsynced (see the type's
        // documentation).
        try AtomicFile.write(w.bytes, to: path, replace: .always, label: "state file", durable: false, options: quiet)
    }
}

/// An exclusive `flock` on a lock file that is never deleted (spec/store.md §6 step 1).
///
/// Each acquisition opens its own descriptor, so store instances in one process exclude one
/// another just as processes do. Waiting uses `LOCK_NB` with jittered back-off until the timeout.
final class FileLock {
    private let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    /// Takes the lock.
    /// - Throws: `busy` after `timeout`; `ioFailure` naming the step.
    static func acquire(path: String, timeout: Duration, what: String, label: String) throws(SWCredError) -> FileLock {
        let fd = try POSIX.open(path, O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0o600, step: "\(label): open lock file")
        do throws(SWCredError) {
            let info = try POSIX.fstat(fd, step: "\(label): stat lock file")
            if info.st_mode & 0o7777 != 0o600, info.st_uid == POSIX.effectiveUserID {
                try POSIX.fchmod(fd, 0o600, step: "\(label): chmod lock file")
            }
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: timeout)
            var delay: Duration = .milliseconds(1)
            while true {
                if try POSIX.tryLockExclusive(fd, step: "\(label): lock") { return FileLock(fd: fd) }
                let now = clock.now
                guard now < deadline else {
                    throw SWCredError(
                        .busy,
                        "\(what) is locked by another writer; gave up after \(timeout.formatted)"
                    )
                }
                // Jittered exponential back-off, capped at 50 ms and at the deadline.
                let jitter = Double(try Sodium.randomUniform(1000)) / 1000
                var wait = delay * (0.5 + jitter)
                let left = deadline - now
                if wait > left { wait = left }
                let (seconds, attoseconds) = wait.components
                var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
                var remaining = timespec()
                while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
                delay = min(delay * 2, .milliseconds(50))
            }
        } catch {
            POSIX.closeQuietly(fd)
            throw error
        }
    }

    /// Releases the lock (closing the descriptor releases the `flock`).
    func release() { POSIX.closeQuietly(fd) }
}

extension Duration {
    var formatted: String {
        let (seconds, attoseconds) = components
        let ms = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return ms % 1000 == 0 ? "\(ms / 1000) s" : "\(ms) ms"
    }
}
