import SWCredCore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

typealias FileStatus = Glibc.stat

private func systemStat(_ path: String, _ info: inout FileStatus) -> Int32 { stat(path, &info) }
private func systemFlock(_ fd: Int32, _ operation: Int32) -> Int32 { flock(fd, operation) }

/// The system calls of the store's I/O, in one place, so that every failure becomes an
/// `ioFailure` that names the step and `errno`, and so that tests can inject faults.
///
/// Faults are injected only through ``FaultInjection`` (internal; reached by `@testable import`).
enum POSIX {
    /// A system call the fault seam can fail.
    enum Call: String, Sendable, CaseIterable {
        case open, read, write, fsync, close, rename, unlink, flock, fchmod, mkdir, link
    }

    // MARK: Errors

    /// `ioFailure` with the OSStatus for the errno (§12): -34 for ENOSPC/EDQUOT, -61 for
    /// EACCES/EPERM/EROFS, -36 otherwise.
    static func ioFailure(_ step: String, errno code: Int32, path: String? = nil) -> SWCredError {
        let ioCode: SWCredError.Code
        switch code {
        case ENOSPC, EDQUOT: ioCode = .ioFailureDiskFull
        case EACCES, EPERM, EROFS: ioCode = .ioFailureWritePermission
        default: ioCode = .ioFailure
        }
        let where_ = path.map { " (\($0))" } ?? ""
        let reason = String(cString: strerror(code))
        return SWCredError(
            ioCode,
            "\(step) failed\(where_): errno \(code) (\(reason))"
        )
    }

    // MARK: Fault seam

    /// Fails the `n`-th call of one kind with `errno` (tests only).
    static func injectedFault(_ call: Call) -> Int32? {
        #if DEBUG
        return FaultInjection.current?.consume(call)
        #else
        return nil
        #endif
    }

    // MARK: Calls (each returns the result or throws ioFailure naming `step`)

    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0, step: String) throws(SWCredError) -> Int32 {
        if let fault = injectedFault(.open) { throw ioFailure(step, errno: fault, path: path) }
        while true {
            let fd = Glibc.open(path, flags, mode)
            if fd >= 0 { return fd }
            if errno == EINTR { continue }
            throw ioFailure(step, errno: errno, path: path)
        }
    }

    /// Opens, returning `nil` for ENOENT.
    static func openIfExists(_ path: String, _ flags: Int32, step: String) throws(SWCredError) -> Int32? {
        if let fault = injectedFault(.open) { throw ioFailure(step, errno: fault, path: path) }
        while true {
            let fd = Glibc.open(path, flags)
            if fd >= 0 { return fd }
            if errno == EINTR { continue }
            if errno == ENOENT { return nil }
            throw ioFailure(step, errno: errno, path: path)
        }
    }

    static func fstat(_ fd: Int32, step: String) throws(SWCredError) -> FileStatus {
        var info = FileStatus()
        guard Glibc.fstat(fd, &info) == 0 else { throw ioFailure(step, errno: errno) }
        return info
    }

    static func lstat(_ path: String) -> FileStatus? {
        var info = FileStatus()
        guard Glibc.lstat(path, &info) == 0 else { return nil }
        return info
    }

    static func statPath(_ path: String) -> FileStatus? {
        var info = FileStatus()
        guard systemStat(path, &info) == 0 else { return nil }
        return info
    }

    /// Reads up to `count` bytes into `buffer`, looping over short reads and EINTR. Returns the
    /// number read (less only at end of file).
    static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, step: String) throws(SWCredError)
        -> Int
    {
        var done = 0
        while done < buffer.count {
            if let fault = injectedFault(.read) { throw ioFailure(step, errno: fault) }
            guard let base = buffer.baseAddress else { return 0 }
            let n = Glibc.read(fd, base + done, buffer.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw ioFailure(step, errno: errno)
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Reads up to `count` bytes (fewer at end of file), into an array with room for
    /// `extraCapacity` more.
    static func read(_ fd: Int32, upTo count: Int, extraCapacity: Int = 0, step: String) throws(SWCredError) -> [UInt8] {
        var result: Result<Int, SWCredError> = .success(0)
        // Read straight into the array's storage: only the bytes read are ever part of it, so
        // the buffer is not zero-filled first (a whole-store read is 13 MB at 100,000 items).
        let out = [UInt8](unsafeUninitializedCapacity: count + max(0, extraCapacity)) { buffer, initialized in
            // A whole store: huge pages and one populate call rather than a fault per page.
            LargeBuffer.prepare(UnsafeMutableRawBufferPointer(buffer))
            do throws(SWCredError) {
                let n = try readFully(
                    fd, into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[0..<count]), step: step
                )
                result = .success(n)
                initialized = n
            } catch {
                result = .failure(error)
                initialized = 0
            }
        }
        _ = try result.get()
        return out
    }

    /// Writes every byte of an array.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], step: String) throws(SWCredError) {
        var result: Result<Void, SWCredError> = .success(())
        bytes.withUnsafeBytes { raw in
            do throws(SWCredError) { try writeAll(fd, raw, step: step) } catch { result = .failure(error) }
        }
        try result.get()
    }

    /// Writes every byte, looping over short writes and EINTR.
    static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, step: String) throws(SWCredError) {
        var done = 0
        while done < buffer.count {
            if let fault = injectedFault(.write) { throw ioFailure(step, errno: fault) }
            guard let base = buffer.baseAddress else { return }
            let n = Glibc.write(fd, base + done, buffer.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw ioFailure(step, errno: errno)
            }
            done += n
        }
    }

    static func fsync(_ fd: Int32, step: String) throws(SWCredError) {
        if let fault = injectedFault(.fsync) { throw ioFailure(step, errno: fault) }
        while Glibc.fsync(fd) != 0 {
            if errno == EINTR { continue }
            throw ioFailure(step, errno: errno)
        }
    }

    static func close(_ fd: Int32, step: String) throws(SWCredError) {
        if let fault = injectedFault(.close) {
            _ = Glibc.close(fd)
            throw ioFailure(step, errno: fault)
        }
        // close is not retried on EINTR on Linux: the descriptor is gone either way.
        if Glibc.close(fd) != 0 { throw ioFailure(step, errno: errno) }
    }

    /// Closes without reporting (cleanup paths).
    static func closeQuietly(_ fd: Int32) { _ = Glibc.close(fd) }

    static func fchmod(_ fd: Int32, _ mode: mode_t, step: String) throws(SWCredError) {
        if let fault = injectedFault(.fchmod) { throw ioFailure(step, errno: fault) }
        if Glibc.fchmod(fd, mode) != 0 { throw ioFailure(step, errno: errno) }
    }

    static func rename(_ from: String, _ to: String, step: String) throws(SWCredError) {
        if let fault = injectedFault(.rename) { throw ioFailure(step, errno: fault, path: to) }
        if Glibc.rename(from, to) != 0 { throw ioFailure(step, errno: errno, path: to) }
    }

    static func unlink(_ path: String) -> Int32 {
        if let fault = injectedFault(.unlink) { return fault }
        return Glibc.unlink(path) == 0 ? 0 : errno
    }

    static func link(_ from: String, _ to: String) -> Int32 {
        if let fault = injectedFault(.link) { return fault }
        return Glibc.link(from, to) == 0 ? 0 : errno
    }

    static func mkdir(_ path: String, _ mode: mode_t) -> Int32 {
        if let fault = injectedFault(.mkdir) { return fault }
        return Glibc.mkdir(path, mode) == 0 ? 0 : errno
    }

    /// `flock(LOCK_EX | LOCK_NB)`: `true` when taken, `false` when held elsewhere.
    static func tryLockExclusive(_ fd: Int32, step: String) throws(SWCredError) -> Bool {
        if let fault = injectedFault(.flock) { throw ioFailure(step, errno: fault) }
        while true {
            if systemFlock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK || errno == EAGAIN { return false }
            throw ioFailure(step, errno: errno)
        }
    }

    /// `fsync` of a directory.
    static func fsyncDirectory(_ path: String, step: String) throws(SWCredError) {
        let fd = try open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, step: step)
        defer { closeQuietly(fd) }
        try fsync(fd, step: step)
    }

    /// The real path of an existing file or directory.
    static func realpath(_ path: String) -> String? {
        guard let resolved = Glibc.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Directory part and last component of a path.
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let dir = String(path[..<slash])
        return (dir.isEmpty ? "/" : dir, String(path[path.index(after: slash)...]))
    }

    /// Names in a directory (for stray temporary files).
    static func directoryEntries(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    static var effectiveUserID: uid_t { geteuid() }

    /// Lowercase hex of random bytes from libsodium (for temporary names).
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// In-process fault injection for tests (spec/store.md T5, in-process half): fail the `n`-th call
/// (1-based) of one kind with an errno. Scoped to a task with ``run(_:)``, so parallel tests do not
/// see each other's faults; inactive unless a test installs one.
final class FaultInjection: Sendable {
    @TaskLocal static var current: FaultInjection?

    private struct Plan {
        var call: POSIX.Call
        var remaining: Int
        var errno: Int32
        var fired = false
    }

    private let plan: Mutex<Plan?>
    private let counts = Mutex<[POSIX.Call: Int]>([:])

    /// An injector that fails the `nth` call of `call` with `errno`, or only counts calls when
    /// `call` is nil.
    init(failing call: POSIX.Call? = nil, nth: Int = 1, errno: Int32 = EIO) {
        plan = Mutex(call.map { Plan(call: $0, remaining: nth, errno: errno) })
    }

    /// Runs `body` with this injector active for the current task.
    func run<R>(_ body: () throws -> R) rethrows -> R {
        try Self.$current.withValue(self) { try body() }
    }

    /// Whether the planned fault fired.
    var fired: Bool { plan.withLock { $0?.fired ?? false } }

    /// How many calls of each kind were seen.
    var callCounts: [POSIX.Call: Int] { counts.withLock { $0 } }

    func consume(_ call: POSIX.Call) -> Int32? {
        counts.withLock { $0[call, default: 0] += 1 }
        return plan.withLock { current -> Int32? in
            guard var active = current, active.call == call, active.remaining > 0 else { return nil }
            active.remaining -= 1
            if active.remaining == 0 { active.fired = true }
            current = active
            return active.remaining == 0 ? active.errno : nil
        }
    }
}
