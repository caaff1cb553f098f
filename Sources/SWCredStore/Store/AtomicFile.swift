import CSWCredSys
import SWCredCore
import SWCredSodium
#if canImport(Glibc)
import Glibc
#endif

/// Steps 5–10 of the write path (spec/store.md §6) for one file: temporary file in the same
/// directory (`O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW`, 0600, then `fchmod`), write
/// everything, `fsync`, `close`, compare-and-swap, rename, directory `fsync`. Foundation's
/// atomic writes are never used.
enum AtomicFile {
    /// How the final rename treats an existing target.
    enum Replace {
        /// Creation: a no-replace rename; an existing target fails with `existsError`.
        case createOnly(existsError: @Sendable () -> SWCredError)
        /// Replace the target only if its generation is still `generation` (else `conflict`).
        case ifGeneration(UInt64)
        /// Replace whatever is there (forced creation, state files).
        case always
    }

    /// The temporary-name prefix for a target: `.<name>.tmp-`.
    static func temporaryPrefix(for name: String) -> String { ".\(name).tmp-" }

    /// Writes `bytes` to `path` atomically (a reader sees the old or the new file) and, when
    /// `durable`, durably (`fsync` of the file before the rename and of the folder after it).
    /// - Throws: `ioFailure` naming the step (the old file untouched and no temporary file left
    ///   when the failure comes before the rename), `conflict`, or the `createOnly` error.
    static func write(
        _ bytes: [UInt8],
        to path: String,
        replace: Replace,
        label: String,
        durable: Bool = true,
        options: StoreOptions
    ) throws(SWCredError) {
        let (directory, name) = POSIX.split(path)
        let temporary = directory + "/" + temporaryPrefix(for: name) + POSIX.hex(try Sodium.randomBytes(6))
        // Step 5: the temporary file.
        let fd = try POSIX.open(
            temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o600,
            step: "\(label): create temporary file"
        )
        do throws(SWCredError) {
            try POSIX.fchmod(fd, 0o600, step: "\(label): chmod temporary file")
            // Step 6: write everything.
            try POSIX.writeAll(fd, bytes, step: "\(label): write temporary file")
            TestHooks.reach(.afterTempWrite, options: options)
            // Step 7: fsync, then close, checking both.
            if durable { try POSIX.fsync(fd, step: "\(label): fsync temporary file") }
        } catch {
            POSIX.closeQuietly(fd)
            _ = POSIX.unlink(temporary)
            throw error
        }
        do throws(SWCredError) {
            try POSIX.close(fd, step: "\(label): close temporary file")
            TestHooks.reach(.afterFsync, options: options)
            // Step 9: compare and swap, then rename.
            switch replace {
            case .createOnly(let existsError):
                try renameNoReplace(temporary, path, step: "\(label): rename", exists: existsError)
            case .ifGeneration(let expected):
                let current = try currentGeneration(of: path, label: label)
                guard current == expected else {
                    throw SWCredError(
                        .conflict,
                        "the store changed under the lock (generation \(current.map(String.init) ?? "none"), expected \(expected)); retry"
                    )
                }
                try POSIX.rename(temporary, path, step: "\(label): rename")
            case .always:
                try POSIX.rename(temporary, path, step: "\(label): rename")
            }
        } catch {
            _ = POSIX.unlink(temporary)
            throw error
        }
        TestHooks.reach(.afterRename, options: options)
        TestHooks.reach(.beforeDirsync, options: options)
        // Step 10: fsync the directory.
        if durable { try POSIX.fsyncDirectory(directory, step: "\(label): fsync directory") }
    }

    /// `renameat2(RENAME_NOREPLACE)`, or `link` + `unlink` where it does not exist.
    static func renameNoReplace(
        _ from: String, _ to: String, step: String = "rename", exists: () -> SWCredError
    ) throws(SWCredError) {
        if let fault = POSIX.injectedFault(.rename) { throw POSIX.ioFailure(step, errno: fault, path: to) }
        if cswcred_sys_rename_noreplace(from, to) == 0 { return }
        let code = errno
        if code == EEXIST { throw exists() }
        guard code == ENOSYS || code == EINVAL else { throw POSIX.ioFailure(step, errno: code, path: to) }
        let linked = POSIX.link(from, to)
        if linked == EEXIST { throw exists() }
        guard linked == 0 else { throw POSIX.ioFailure("link", errno: linked, path: to) }
        _ = POSIX.unlink(from)
    }

    /// The generation in the header of the file now at `path`, or `nil` if it has none.
    static func currentGeneration(of path: String, label: String = "keychain") throws(SWCredError) -> UInt64? {
        let step = "\(label): re-read header"
        guard let fd = try POSIX.openIfExists(path, O_RDONLY | O_CLOEXEC, step: step) else { return nil }
        defer { POSIX.closeQuietly(fd) }
        let prefix = try POSIX.read(fd, upTo: StoreHeader.Offset.payloadLength, step: step)
        return StoreHeader.peekGeneration(prefix)
    }

    /// Removes temporary files that a killed writer left for `name` in `directory`. Call only
    /// while holding the store's lock. Only names of the exact pattern are touched.
    static func removeStrayTemporaries(directory: String, name: String) {
        let prefix = temporaryPrefix(for: name)
        for entry in POSIX.directoryEntries(directory) where entry.hasPrefix(prefix) {
            let suffix = entry.dropFirst(prefix.count)
            guard suffix.count == 12, suffix.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            else { continue }
            _ = POSIX.unlink(directory + "/" + entry)
        }
    }
}
