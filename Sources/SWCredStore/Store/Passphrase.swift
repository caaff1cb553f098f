package import SWCredCore
package import SWCredSodium
#if canImport(Glibc)
import Glibc
#endif

/// Reads passphrases into guarded memory (spec/store.md §4.2, §8).
///
/// One trailing line ending (LF or CRLF) is removed; the remaining bytes are used as they are,
/// without Unicode normalisation (users of non-ASCII passphrases must type the same bytes). An
/// empty passphrase is refused, and so is one above the limit (4,096 bytes by default).
package enum Passphrase {
    /// Reads a passphrase from a descriptor (stdin, a file, an inherited descriptor) until end of
    /// file. The bytes never pass through a Swift array or string.
    /// - Parameters:
    ///   - fileDescriptor: the descriptor to read; it is not closed.
    ///   - limits: ``StoreLimits/maxPassphraseBytes``.
    /// - Throws: `invalidParameter` (empty, too long), `ioFailure`.
    package static func read(fileDescriptor: Int32, limits: StoreLimits = .default) throws(SWCredError) -> SecureBytes {
        let max = limits.maxPassphraseBytes
        // Room for the limit plus CRLF plus one byte to detect an overlong input.
        return try SecureBytes(capacity: max + 3) { buffer throws(SWCredError) in
            var count = try POSIX.readFully(fileDescriptor, into: buffer, step: "read passphrase")
            guard count < buffer.count else {
                throw SWCredError(.invalidParameter, "the passphrase is longer than \(max) bytes")
            }
            if count > 0, buffer[count - 1] == 0x0A {
                count -= 1
                if count > 0, buffer[count - 1] == 0x0D { count -= 1 }
            }
            guard count > 0 else { throw SWCredError(.invalidParameter, "the passphrase is empty") }
            guard count <= max else {
                throw SWCredError(.invalidParameter, "the passphrase is longer than \(max) bytes")
            }
            return count
        }
    }

    /// Checks a passphrase's length against the limits.
    /// - Throws: `invalidParameter`.
    package static func validate(_ passphrase: SecureBytes, limits: StoreLimits = .default) throws(SWCredError) {
        guard passphrase.count > 0 else { throw SWCredError(.invalidParameter, "the passphrase is empty") }
        guard passphrase.count <= limits.maxPassphraseBytes else {
            throw SWCredError(.invalidParameter, "the passphrase is longer than \(limits.maxPassphraseBytes) bytes")
        }
    }
}
