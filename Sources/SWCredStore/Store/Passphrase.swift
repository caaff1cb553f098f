package import SWCredCore
package import SWCredSodium

/// The passphrase rules (spec/store.md §4.2): an empty passphrase is refused, and so is one above
/// the limit (4,096 bytes by default). `SecretReader` reads one into guarded memory.
package enum Passphrase {
    /// Checks a passphrase's length against the limits.
    /// - Throws: `invalidParameter`.
    package static func validate(_ passphrase: SecureBytes, limits: StoreLimits = .default) throws(SWCredError) {
        guard passphrase.count > 0 else { throw SWCredError(.invalidParameter, "the passphrase is empty") }
        guard passphrase.count <= limits.maxPassphraseBytes else {
            throw SWCredError(.invalidParameter, "the passphrase is longer than \(limits.maxPassphraseBytes) bytes")
        }
    }
}
