package import SWCredCore

/// How the WebAuthn option forms are read: SWCredCore's ``JSONReader`` under this module's
/// limits, duplicate keys refused (WebAuthn option forms never repeat a member, and a repeated
/// one would let two readers disagree).
///
/// Every input gives a value or a `malformedInput` error (exit 65) naming the byte offset; the
/// size, depth, string and member limits hold whatever the input.
package enum WebAuthnJSON {
    /// The limits of an options document: 64 KiB (an options document with 64 excluded
    /// credentials of 1023 bytes each fits), nesting 16 (the option forms need 4), 256 members
    /// or elements per container, 8 KiB per string.
    package static let limits = JSONReader.Limits(
        maxBytes: 64 * 1024, maxDepth: 16, maxStringBytes: 8 * 1024, maxMembers: 256)

    /// Parses one options document (or a `batch` line holding one).
    /// - Throws: `malformedInput` with the byte offset of the problem.
    package static func parse(_ bytes: [UInt8], limits: JSONReader.Limits = limits) throws(SWCredError) -> JSONValue {
        do throws(JSONReader.Failure) {
            return try JSONReader(limits: limits, duplicateKeys: .refuse).read(bytes).value
        } catch {
            switch error.kind {
            case .inputTooLarge:
                throw SWCredError(
                    .malformedInput, "the options JSON is \(bytes.count) bytes; the limit is \(limits.maxBytes)")
            case .duplicateKey(let key):
                let member = key.prefix(64)
                throw SWCredError(
                    .malformedInput, "malformed options JSON at byte \(error.offset): the member \"\(member)\" repeats")
            case .syntax, .encoding, .limitExceeded:
                throw SWCredError(.malformedInput, "malformed options JSON at byte \(error.offset): \(error.message)")
            }
        }
    }
}
