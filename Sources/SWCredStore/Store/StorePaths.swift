package import SWCredCore
#if canImport(Glibc)
import Glibc
#endif

/// Default locations (spec/store.md §1, spec/cli.md): XDG base directories with the usual
/// fallbacks under the home directory.
///
/// | file | default |
/// | --- | --- |
/// | keychain | `$XDG_DATA_HOME/swcred/keychain.swcred` (`~/.local/share/…`), or `SWCRED_STORE` |
/// | key file | `$XDG_CONFIG_HOME/swcred/keychain.key` (`~/.config/…`), or `SWCRED_KEY_FILE` |
/// | state | `$XDG_STATE_HOME/swcred/` (`~/.local/state/…`), one `<store id>.state` per store |
/// | lock | the keychain's resolved path + `.lock` |
///
/// The key file lives in the configuration directory, not beside the keychain, so that copying
/// the data directory does not carry the key with it.
package enum StorePaths {
    /// The keychain file name.
    static let storeFileName = "keychain.swcred"
    /// The key file name.
    static let keyFileName = "keychain.key"

    /// The keychain path: `explicit`, else `SWCRED_STORE`, else `$XDG_DATA_HOME/swcred/keychain.swcred`.
    /// - Throws: `invalidParameter` when neither the XDG variable nor `HOME` is set.
    package static func storePath(explicit: String? = nil, environment: [String: String]) throws(SWCredError) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnvironment = environment["SWCRED_STORE"], !fromEnvironment.isEmpty { return fromEnvironment }
        return try base("XDG_DATA_HOME", fallback: ".local/share", environment) + "/swcred/" + storeFileName
    }

    /// The key-file path: `explicit`, else `SWCRED_KEY_FILE`, else `$XDG_CONFIG_HOME/swcred/keychain.key`.
    package static func keyFilePath(explicit: String? = nil, environment: [String: String]) throws(SWCredError) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnvironment = environment["SWCRED_KEY_FILE"], !fromEnvironment.isEmpty { return fromEnvironment }
        return try base("XDG_CONFIG_HOME", fallback: ".config", environment) + "/swcred/" + keyFileName
    }

    /// The state directory: `$XDG_STATE_HOME/swcred` (`~/.local/state/swcred`).
    package static func stateDirectory(environment: [String: String]) throws(SWCredError) -> String {
        try base("XDG_STATE_HOME", fallback: ".local/state", environment) + "/swcred"
    }

    /// The lock file of a (resolved) keychain path.
    package static func lockPath(forStore path: String) -> String { path + ".lock" }

    /// The process environment as a dictionary. Built from `environ`'s bytes into a dictionary
    /// sized up front: every command reads it once at start, and splitting each entry at its first
    /// `=` by `Character` into a growing dictionary cost 0.68 M instructions for 42 variables (issue
    /// 22). Entries without `=` are skipped; of two entries with one name the later wins; bytes that
    /// are not UTF-8 are repaired as `String(cString:)` repairs them.
    package static var processEnvironment: [String: String] {
        var count = 0
        while environ[count] != nil { count += 1 }
        var out = [String: String](minimumCapacity: count)
        for index in 0..<count {
            guard let entry = environ[index] else { break }
            let bytes = UnsafeRawBufferPointer(start: entry, count: strlen(entry))
            guard let separator = bytes.firstIndex(of: UInt8(ascii: "=")) else { continue }
            out[String(decoding: bytes[..<separator], as: UTF8.self)] =
                String(decoding: bytes[(separator + 1)...], as: UTF8.self)
        }
        return out
    }

    private static func base(_ variable: String, fallback: String, _ environment: [String: String]) throws(SWCredError)
        -> String
    {
        // XDG: a relative value is invalid and ignored.
        if let value = environment[variable], value.hasPrefix("/") { return value }
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            throw SWCredError(.invalidParameter, "neither \(variable) nor HOME is set to an absolute path")
        }
        return home + "/" + fallback
    }

    /// Creates `path` and missing parents with mode 0700 (`chmod`ed, since the umask only removes
    /// bits). Existing directories are left as they are.
    static func makeDirectory(_ path: String) throws(SWCredError) {
        if let info = POSIX.statPath(path) {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw POSIX.ioFailure("create directory", errno: ENOTDIR, path: path)
            }
            return
        }
        let (parent, _) = POSIX.split(path)
        if parent != path { try makeDirectory(parent) }
        let rc = POSIX.mkdir(path, 0o700)
        if rc != 0 && rc != EEXIST { throw POSIX.ioFailure("create directory", errno: rc, path: path) }
        if rc == 0 { _ = chmod(path, 0o700) }
    }

    /// The store's directory must be owned by the user and not writable by group or others.
    static func checkDirectory(_ path: String) throws(SWCredError) {
        guard let info = POSIX.statPath(path) else {
            throw SWCredError(.storeNotFound, "the store directory \(path) does not exist")
        }
        guard info.st_uid == POSIX.effectiveUserID, info.st_mode & 0o022 == 0 else {
            throw SWCredError(
                .insecurePermissions,
                "the store directory \(path) is writable by group or others, or owned by another user"
            )
        }
    }
}
