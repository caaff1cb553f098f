package import SWCredCore
package import SWCredSodium
#if canImport(Glibc)
import Glibc
#endif

/// The key file of key-file mode (spec/store.md §4.2): exactly 32 raw random bytes, mode 0600,
/// owned by the user.
package enum KeyFile {
    /// The key length (and file length): 32 bytes.
    package static let length = 32

    /// Creates a new key file with 32 bytes from `randombytes_buf`, through the safe write path
    /// (temporary file 0600, `fsync`, no-replace rename, directory `fsync`). Missing parent
    /// directories are created 0700. An existing key file is never overwritten.
    ///
    /// - Parameter path: where to create it.
    /// - Throws: `invalidKeyFile` when a file already exists there; `insecurePermissions` for an
    ///   existing parent directory writable by others; `ioFailure` naming the step.
    package static func create(at path: String) throws(SWCredError) {
        let (directory, name) = POSIX.split(path)
        try StorePaths.makeDirectory(directory)
        if POSIX.lstat(path) != nil {
            throw SWCredError(.invalidKeyFile, "a key file already exists at \(path); it is never overwritten")
        }
        let key = try SecureBytes(randomCount: length)
        let temporary = "\(directory)/.\(name).tmp-\(POSIX.hex(try Sodium.randomBytes(6)))"
        let fd = try POSIX.open(
            temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o600, step: "create key file"
        )
        do throws(SWCredError) {
            try POSIX.fchmod(fd, 0o600, step: "chmod key file")
            try key.withUnsafeBytes { raw throws(SWCredError) in try POSIX.writeAll(fd, raw, step: "write key file") }
            try POSIX.fsync(fd, step: "fsync key file")
        } catch {
            POSIX.closeQuietly(fd)
            _ = POSIX.unlink(temporary)
            throw error
        }
        do throws(SWCredError) {
            try POSIX.close(fd, step: "close key file")
            try AtomicFile.renameNoReplace(temporary, path, step: "key file: rename", exists: {
                SWCredError(.invalidKeyFile, "a key file already exists at \(path); it is never overwritten")
            })
        } catch {
            _ = POSIX.unlink(temporary)
            throw error
        }
        try POSIX.fsyncDirectory(directory, step: "fsync key file directory")
    }

    /// Reads and checks a key file.
    ///
    /// The file must be a regular file (not a symbolic link), owned by the current user, with no
    /// group or other permission bits, and exactly 32 bytes long. The bytes go straight into
    /// guarded memory.
    /// - Throws: `invalidKeyFile` (missing, not a regular file, wrong length) or
    ///   `insecurePermissions` (another owner, group/other bits).
    package static func load(at path: String) throws(SWCredError) -> SecureBytes {
        if let link = POSIX.lstat(path), link.st_mode & S_IFMT == S_IFLNK {
            throw SWCredError(.invalidKeyFile, "the key file \(path) is a symbolic link")
        }
        guard
            let fd = try POSIX.openIfExists(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, step: "open key file")
        else {
            throw SWCredError(.invalidKeyFile, "no key file at \(path)")
        }
        defer { POSIX.closeQuietly(fd) }
        let info = try POSIX.fstat(fd, step: "stat key file")
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw SWCredError(.invalidKeyFile, "the key file \(path) is not a regular file")
        }
        guard info.st_uid == POSIX.effectiveUserID else {
            throw SWCredError(.insecurePermissions, "the key file \(path) is owned by another user")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw SWCredError(
                .insecurePermissions,
                "the key file \(path) is accessible to group or others (mode \(String(info.st_mode & 0o777, radix: 8))); chmod 600 it"
            )
        }
        guard info.st_size == off_t(length) else {
            throw SWCredError(.invalidKeyFile, "the key file \(path) is \(info.st_size) bytes, not \(length)")
        }
        return try SecureBytes(capacity: length) { buffer throws(SWCredError) in
            let n = try POSIX.readFully(fd, into: buffer, step: "read key file")
            guard n == length else {
                throw SWCredError(.invalidKeyFile, "the key file \(path) changed while it was read")
            }
            return n
        }
    }
}
