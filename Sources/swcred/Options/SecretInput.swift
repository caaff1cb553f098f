#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SWCredCore
import SWCredSodium
import SWCredStore

/// Where a password or passphrase comes from. Never argv (cli.md "Conventions").
enum SecretSource: Sendable, Equatable, CustomStringConvertible {
    /// Standard input, read to its end.
    case standardInput
    /// A file; it must not be readable or writable by group or others when it is a regular file.
    case file(String)
    /// An inherited, already open descriptor, read to its end.
    case descriptor(Int32)
    /// The controlling terminal, with echo off. Only when stdin is a terminal.
    case terminal

    var description: String {
        switch self {
        case .standardInput: return "standard input"
        case .file(let path): return "file \(path)"
        case .descriptor(let fd): return "descriptor \(fd)"
        case .terminal: return "terminal"
        }
    }
}

/// Reads passwords and passphrases from stdin, a file, a descriptor or the terminal.
///
/// Rules (store.md §4.2, §8, §9; cli.md "Conventions"):
/// - at most ``maximumLength`` bytes (4,096) after one trailing line ending (LF or CRLF) is
///   removed; longer input fails with `invalidParameter` (50) without echoing any of it;
/// - the bytes are used as they are, without Unicode normalisation;
/// - a secret file that is a regular file must be owned by the current user and carry no group or
///   other permission bits, or reading fails with `insecurePermissions` (28); a missing file is
///   `fileNotFound` (66);
/// - with no source given and no terminal on stdin, ``resolve(_:what:)`` fails with
///   `interactionNotAllowed` (29) at once: the tool never waits for input it cannot get.
enum SecretInput {
    /// The largest password or passphrase accepted, in bytes.
    static let maximumLength = 4096

    /// Picks the source to use: the one given, else the terminal when stdin is one.
    /// - Throws: `interactionNotAllowed` (29) when no source is given and stdin is not a terminal.
    static func resolve(_ given: SecretSource?, what: String) throws(SWCredError) -> SecretSource {
        if let given { return given }
        if CommandContext.isTerminal(CommandContext.current.standardInput) { return .terminal }
        throw SWCredError(
            .interactionNotAllowed,
            "a \(what) is needed but none was given and stdin is not a terminal; "
                + "use \(what == "password" ? "--password-stdin or --password-file" : "--passphrase-stdin, --passphrase-file, --passphrase-fd or SWCRED_PASSPHRASE_FILE")"
        )
    }

    /// Reads one secret into libsodium guarded memory (``SecureBytes``): the bytes never pass
    /// through a Swift array or string here.
    /// - Parameters:
    ///   - source: where to read from.
    ///   - what: `password` or `passphrase`, for messages and the terminal prompt.
    ///   - allowEmpty: whether an empty secret is accepted.
    /// - Throws: `fileNotFound`, `insecurePermissions`, `invalidParameter`, `ioFailure`,
    ///   `interactionNotAllowed`, `resourceExhausted`.
    static func read(_ source: SecretSource, what: String, allowEmpty: Bool = false) throws(SWCredError) -> SecureBytes {
        let secret: SecureBytes
        switch source {
        case .standardInput:
            secret = try readAll(fd: CommandContext.current.standardInput, what: what, origin: "standard input")
        case .descriptor(let fd):
            guard fd >= 0 else {
                throw SWCredError(.usage, "--\(what)-fd needs a non-negative descriptor number")
            }
            var st = stat()
            guard fstat(fd, &st) == 0 else {
                throw SWCredError(.fileNotFound, "descriptor \(fd) is not open (errno \(errno))")
            }
            try checkPermissions(st, origin: "descriptor \(fd)")
            secret = try readAll(fd: fd, what: what, origin: "descriptor \(fd)")
        case .file(let path):
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
            guard fd >= 0 else {
                let code = errno
                if code == ENOENT || code == ENOTDIR {
                    throw SWCredError(.fileNotFound, "\(what) file \(path) does not exist")
                }
                throw SWCredError(.fileNotFound, "\(what) file \(path) cannot be opened: \(String(cString: strerror(code))) (errno \(code))")
            }
            defer { close(fd) }
            var st = stat()
            guard fstat(fd, &st) == 0 else {
                throw SWCredError(.ioFailure, "fstat of \(what) file \(path) failed (errno \(errno))")
            }
            if (st.st_mode & S_IFMT) == S_IFDIR {
                throw SWCredError(.fileNotFound, "\(what) file \(path) is a directory")
            }
            try checkPermissions(st, origin: "\(what) file \(path)")
            secret = try readAll(fd: fd, what: what, origin: "\(what) file \(path)")
        case .terminal:
            secret = try readTerminal(what: what)
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

    /// Removes one trailing LF or CRLF from the first `count` bytes; returns the new count.
    private static func strippingLineEnding(_ buffer: UnsafeMutableRawBufferPointer, count: Int) -> Int {
        var length = count
        if length > 0 && buffer[length - 1] == UInt8(ascii: "\n") {
            length -= 1
            if length > 0 && buffer[length - 1] == UInt8(ascii: "\r") { length -= 1 }
        }
        return length
    }

    /// Reads to end of file, at most `maximumLength` + 2 bytes (room for CRLF) + 1 (to notice
    /// overflow), then strips one trailing line ending. SecureBytes wipes the unused tail.
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
            guard filled < buffer.count else {
                throw SWCredError(.invalidParameter, "the \(what) from \(origin) is longer than \(maximumLength) bytes")
            }
            let length = strippingLineEnding(buffer, count: filled)
            guard length <= maximumLength else {
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
            guard sawNewline || filled < buffer.count else {
                throw SWCredError(.invalidParameter, "the \(what) typed is longer than \(maximumLength) bytes")
            }
            var length = filled
            if length > 0 && buffer[length - 1] == UInt8(ascii: "\r") { length -= 1 }
            guard length <= maximumLength else {
                throw SWCredError(.invalidParameter, "the \(what) typed is longer than \(maximumLength) bytes")
            }
            return length
        }
    }
}

/// Refuses options that would carry a secret on the command line, before ArgumentParser sees them.
///
/// ArgumentParser's "unknown option" and "unexpected argument" messages repeat what was typed, so
/// `--password=hunter2` would be echoed to stderr (and into logs). This guard runs first (from
/// `SWCred.main`) and prints a fixed message instead, exit 64 (store.md §8, T10).
///
/// Refused: any option whose name (the part before `=`) contains `password`, `passphrase`,
/// `passwd` or `secret`, or is `--pass`/`--pw`, except the options that take a *source* of a
/// secret (`--password-stdin`, `--password-file`, `--passphrase-stdin`, `--passphrase-file`,
/// `--passphrase-fd`, and the `--new-…` forms of `rekey`), which are not secrets themselves.
/// A flag given with `=value` (`--password-stdin=x`) is refused as well, since ArgumentParser
/// would echo the value. Arguments after a lone `--` are not inspected.
enum SecretArgumentGuard {
    // Switches rather than global sets: a command pays no one-time initialiser (hashing and
    // allocating two sets at start) for this check.

    /// Whether `name` is an option that takes a *source* of a secret (`--password-stdin`, …).
    static func isSourceOption(_ name: String) -> Bool {
        switch name {
        case "--password-stdin", "--passphrase-stdin", "--new-passphrase-stdin": true
        default: isValueTakingSourceOption(name)
        }
    }

    /// Whether `name` is a source option that takes a value (`--passphrase-fd 3`).
    static func isValueTakingSourceOption(_ name: String) -> Bool {
        switch name {
        case "--password-file", "--passphrase-file", "--passphrase-fd", "--new-passphrase-file",
            "--new-passphrase-fd":
            true
        default: false
        }
    }

    /// Returns the offending option's *name* (never its value), or nil when argv is clean.
    static func offendingOption(in arguments: [String]) -> String? {
        for argument in arguments {
            if argument == "--" { return nil }
            guard argument.hasPrefix("--") else { continue }
            let name: String
            let hasInlineValue: Bool
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals]).lowercased()
                hasInlineValue = true
            } else {
                name = argument.lowercased()
                hasInlineValue = false
            }
            if isSourceOption(name) {
                if hasInlineValue && !isValueTakingSourceOption(name) { return name }
                continue
            }
            let looksSecret = ["password", "passphrase", "passwd", "secret"].contains { name.contains($0) }
                || name == "--pass" || name == "--pw"
            if looksSecret { return name }
        }
        return nil
    }

    /// Reports a fixed message and returns 64 (usage) when argv carries a secret-looking option;
    /// `nil` otherwise.
    static func refuseSecretOptions(_ arguments: [String]) -> ExitStatus? {
        guard let name = offendingOption(in: arguments) else { return nil }
        let json = arguments.contains("--format=json")
            || zip(arguments, arguments.dropFirst()).contains { $0 == "--format" && $1 == "json" }
        _ = name  // never printed: a mistyped option name could itself contain the secret
        let message = "an option that would carry a password or passphrase was refused: secrets are never "
            + "taken from the command line; use --password-stdin, --password-file, --passphrase-stdin, "
            + "--passphrase-file or --passphrase-fd"
        let console = Console(format: json ? .json : .text)
        console.report(SWCredError(.usage, message))
        return .usage
    }
}
