#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
package import SWCredCore
package import SWCredSodium

/// Reads passwords and passphrases from standard input, a file, a descriptor or the terminal into
/// libsodium guarded memory (``SecureBytes``): the bytes never pass through a Swift array or
/// string here. The one reader of secrets; `swcred` maps its flags to a ``SecretSource``.
///
/// Rules (store.md §4.2, §8, §9; cli.md "Conventions"):
/// - at most ``maximumLength`` bytes (4,096) after one trailing line ending (LF or CRLF) is
///   removed; longer input fails with `invalidParameter` without echoing any of it;
/// - the bytes are used as they are, without Unicode normalisation;
/// - a secret file (or descriptor) that is a regular file must be owned by the current user and
///   carry no group or other permission bits, or reading fails with `insecurePermissions`; a
///   missing file is `fileNotFound`;
/// - an empty secret is refused unless the caller allows it (Apple's add accepts an empty password).
package struct SecretReader: Sendable {
    /// The largest password or passphrase accepted, in bytes.
    package static let maximumLength = 4096

    /// The descriptor ``SecretSource/standardInput`` reads (a command context may inject another).
    package var standardInput: Int32

    /// Creates a reader whose standard input is `standardInput`.
    package init(standardInput: Int32 = STDIN_FILENO) {
        self.standardInput = standardInput
    }

    /// Reads one secret.
    /// - Parameters:
    ///   - source: where to read from.
    ///   - what: `password`, `passphrase` or `new passphrase`, for messages and the terminal prompt.
    ///   - allowEmpty: whether an empty secret is accepted.
    /// - Throws: `fileNotFound`, `insecurePermissions`, `invalidParameter`, `ioFailure`,
    ///   `interactionNotAllowed` (no terminal), `resourceExhausted`.
    package func read(_ source: SecretSource, what: String, allowEmpty: Bool = false) throws(SWCredError) -> SecureBytes {
        let secret: SecureBytes
        switch source {
        case .standardInput:
            secret = try Self.readAll(fd: standardInput, what: what, origin: "standard input")
        case .descriptor(let fd):
            var st = stat()
            guard fd >= 0, fstat(fd, &st) == 0 else {
                throw SWCredError(.fileNotFound, "descriptor \(fd) is not open (errno \(errno))")
            }
            try Self.checkPermissions(st, origin: "descriptor \(fd)")
            secret = try Self.readAll(fd: fd, what: what, origin: "descriptor \(fd)")
        case .file(let path):
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
            guard fd >= 0 else {
                let code = errno
                if code == ENOENT || code == ENOTDIR {
                    throw SWCredError(.fileNotFound, "\(what) file \(path) does not exist")
                }
                throw SWCredError(
                    .fileNotFound, "\(what) file \(path) cannot be opened: \(String(cString: strerror(code))) (errno \(code))")
            }
            defer { close(fd) }
            var st = stat()
            guard fstat(fd, &st) == 0 else {
                throw SWCredError(.ioFailure, "fstat of \(what) file \(path) failed (errno \(errno))")
            }
            if (st.st_mode & S_IFMT) == S_IFDIR {
                throw SWCredError(.fileNotFound, "\(what) file \(path) is a directory")
            }
            try Self.checkPermissions(st, origin: "\(what) file \(path)")
            secret = try Self.readAll(fd: fd, what: what, origin: "\(what) file \(path)")
        case .terminal:
            secret = try Self.readTerminal(what: what)
        }
        if secret.count == 0 && !allowEmpty {
            throw SWCredError(.invalidParameter, "the \(what) from \(source) is empty")
        }
        return secret
    }

    /// A regular file holding a secret must be ours and private (store.md §8).
    private static func checkPermissions(_ st: stat, origin: String) throws(SWCredError) {
        guard (st.st_mode & S_IFMT) == S_IFREG else { return }  // pipes, ttys, sockets: no mode to check
        if st.st_uid != geteuid() {
            throw SWCredError(.insecurePermissions, "\(origin) is owned by another user (uid \(st.st_uid))")
        }
        let mode = st.st_mode & 0o777
        if mode & 0o077 != 0 {
            throw SWCredError(
                .insecurePermissions,
                "\(origin) is accessible to group or others (mode \(String(mode, radix: 8))); run chmod 600 on it"
            )
        }
    }

    /// Reads to end of file, at most `maximumLength` + 2 bytes (room for CRLF) + 1 (to notice
    /// overflow), then strips one trailing LF or CRLF. SecureBytes wipes the unused tail.
    private static func readAll(fd: Int32, what: String, origin: String) throws(SWCredError) -> SecureBytes {
        try SecureBytes(capacity: maximumLength + 3) { buffer throws(SWCredError) -> Int in
            var filled = 0
            while filled < buffer.count {
                let n = Glibc.read(fd, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw SWCredError(.ioFailure, "reading the \(what) from \(origin) failed (errno \(errno))")
                }
                if n == 0 { break }
                filled += n
            }
            var length = filled
            if length > 0 && buffer[length - 1] == UInt8(ascii: "\n") {
                length -= 1
                if length > 0 && buffer[length - 1] == UInt8(ascii: "\r") { length -= 1 }
            }
            guard filled < buffer.count, length <= maximumLength else {
                throw SWCredError(.invalidParameter, "the \(what) from \(origin) is longer than \(maximumLength) bytes")
            }
            return length
        }
    }

    /// Prompts on the controlling terminal with echo off, and reads one line.
    private static func readTerminal(what: String) throws(SWCredError) -> SecureBytes {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard tty >= 0 else {
            throw SWCredError(.interactionNotAllowed, "a \(what) is needed and there is no terminal to ask for it")
        }
        defer { close(tty) }
        let prompt = "\(what.prefix(1).uppercased() + what.dropFirst()): "
        _ = prompt.withCString { write(tty, $0, strlen($0)) }
        var saved = termios()
        let haveAttributes = tcgetattr(tty, &saved) == 0
        if haveAttributes {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ECHONL)
            _ = tcsetattr(tty, TCSAFLUSH, &quiet)
        }
        defer {
            if haveAttributes {
                var restore = saved
                _ = tcsetattr(tty, TCSAFLUSH, &restore)
            }
        }
        return try SecureBytes(capacity: maximumLength + 2) { buffer throws(SWCredError) -> Int in
            // Byte by byte up to the first newline, so nothing beyond the line is consumed.
            var filled = 0
            var sawNewline = false
            while filled < buffer.count, let base = buffer.baseAddress {
                let n = Glibc.read(tty, base + filled, 1)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                if buffer[filled] == UInt8(ascii: "\n") {
                    buffer[filled] = 0
                    sawNewline = true
                    break
                }
                filled += 1
            }
            var length = filled
            if length > 0 && buffer[length - 1] == UInt8(ascii: "\r") { length -= 1 }
            guard sawNewline || filled < buffer.count, length <= maximumLength else {
                throw SWCredError(.invalidParameter, "the \(what) typed is longer than \(maximumLength) bytes")
            }
            return length
        }
    }
}
