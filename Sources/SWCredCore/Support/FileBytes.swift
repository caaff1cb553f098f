#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a file's bytes with a cap, through `open`/`read` (what Foundation's `FileHandle` did
/// for the commands, which `FoundationEssentials` does not have).
///
/// ```swift
/// let bytes = try FileBytes.read(path: "App.entitlements", upTo: (1 << 20) + 1)
/// ```
package enum FileBytes {
    /// Why a read failed: the call and its `errno`.
    package struct Failure: Error, Sendable, Hashable {
        /// The call that failed.
        package enum Step: Sendable, Hashable {
            /// `open` (the file does not exist, is not readable, ...).
            case open
            /// `read` on an open descriptor (an I/O error, a directory on stdin, ...).
            case read
        }

        /// The call that failed.
        package let step: Step
        /// The `errno` it set.
        package let errno: Int32

        /// A failure of `step` with `errno`.
        package init(step: Step, errno: Int32) {
            self.step = step
            self.errno = errno
        }

        /// The text Foundation's `FileHandle` gave this failure as its `localizedDescription`,
        /// which the commands have printed after "cannot read PATH:" since the first release:
        /// on Linux, Foundation has no localized text for its file errors, so it prints the
        /// Cocoa error domain and the code it maps the `errno` of a read to (`fileReadUnknown`
        /// 256, `fileReadNoPermission` 257, `fileReadInvalidFileName` 258, `fileReadNoSuchFile`
        /// 260, `fileReadTooLarge` 263). Kept byte for byte so that output does not change.
        package var foundationDescription: String {
            let code: Int
            switch self.errno {
            case EFBIG: code = 263
            case ENOENT: code = 260
            case EPERM, EACCES: code = 257
            case ENAMETOOLONG: code = 258
            default: code = 256
            }
            return "The operation could not be completed. (NSCocoaErrorDomain error \(code).)"
        }
    }

    /// Opens `path` read-only (close-on-exec).
    ///
    /// - Returns: The descriptor, which the caller closes.
    /// - Throws: ``Failure`` with step `.open`.
    package static func open(path: String) throws(Failure) -> Int32 {
        while true {
            #if canImport(Darwin)
            let descriptor = Darwin.open(path, O_RDONLY | O_CLOEXEC)
            #else
            let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            #endif
            if descriptor >= 0 { return descriptor }
            let error = currentErrno()
            if error != EINTR { throw Failure(step: .open, errno: error) }
        }
    }

    /// Reads at most `limit` bytes of `path`: fewer only at the end of the file.
    ///
    /// - Throws: ``Failure``.
    package static func read(path: String, upTo limit: Int) throws(Failure) -> [UInt8] {
        let file = try OpenFile(path: path)
        defer { file.close() }
        return try file.read(upTo: limit)
    }

    /// Reads from `descriptor` until `limit` bytes or the end of the input, retrying
    /// interrupted calls.
    ///
    /// - Throws: ``Failure`` with step `.read`.
    package static func read(descriptor: Int32, upTo limit: Int) throws(Failure) -> [UInt8] {
        guard limit > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Swift.min(limit, 1 << 16))
        var count = 0
        while count < limit {
            if count == bytes.count {
                bytes.append(contentsOf: repeatElement(0, count: Swift.min(bytes.count, limit - count)))
            }
            let got = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return systemRead(descriptor, base + count, buffer.count - count)
            }
            if got > 0 {
                count += got
            } else if got == 0 {
                break
            } else {
                let error = currentErrno()
                if error != EINTR { throw Failure(step: .read, errno: error) }
            }
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Writes all of `bytes` to `descriptor`, retrying interrupted and partial writes; stops
    /// silently at the first failure (a closed pipe), as the commands' output always has.
    package static func write(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { raw in
            guard var base = raw.baseAddress else { return }
            var left = raw.count
            while left > 0 {
                #if canImport(Darwin)
                let written = Darwin.write(descriptor, base, left)
                #else
                let written = Glibc.write(descriptor, base, left)
                #endif
                if written > 0 {
                    base += written
                    left -= written
                } else if written < 0 && currentErrno() == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }

    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.read(descriptor, buffer, count)
        #else
        Glibc.read(descriptor, buffer, count)
        #endif
    }

    private static func currentErrno() -> Int32 {
        #if canImport(Darwin)
        Darwin.errno
        #else
        Glibc.errno
        #endif
    }
}

extension FileBytes {
    /// An open descriptor read in pieces, closed by ``close()`` or when the last reference goes
    /// (as `FileHandle` closed its descriptor); a borrowed one (stdin) is never closed.
    package final class OpenFile {
        private var descriptor: Int32
        private let owned: Bool

        /// Opens `path` read-only.
        ///
        /// - Throws: ``Failure`` with step `.open`.
        package init(path: String) throws(Failure) {
            descriptor = try FileBytes.open(path: path)
            owned = true
        }

        /// Reads from `descriptor`, which the caller keeps open and closes.
        package init(borrowing descriptor: Int32) {
            self.descriptor = descriptor
            owned = false
        }

        /// Up to `limit` bytes: fewer only at the end of the input; empty at the end.
        ///
        /// - Throws: ``Failure`` with step `.read`.
        package func read(upTo limit: Int) throws(Failure) -> [UInt8] {
            guard descriptor >= 0 else { return [] }
            return try FileBytes.read(descriptor: descriptor, upTo: limit)
        }

        /// Closes an owned descriptor; later reads return nothing.
        package func close() {
            if owned, descriptor >= 0 { _ = FileBytes.systemClose(descriptor) }
            descriptor = -1
        }

        deinit { close() }
    }

    fileprivate static func systemClose(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.close(descriptor)
        #else
        Glibc.close(descriptor)
        #endif
    }
}
