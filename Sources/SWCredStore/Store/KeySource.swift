public import SWCredSodium

/// The key material that protects a store (spec/store.md §4.2).
///
/// The header records which kind a store uses; offering the other kind fails with `wrongKey`
/// (reason: key source) before any KDF runs.
public enum KeySource: Sendable, CustomStringConvertible {
    /// A 32-byte random key file (raw bytes, mode 0600, owned by the user). No password hashing.
    case keyFile(path: String)
    /// A passphrase (1–4,096 bytes, used as given, without Unicode normalisation), stretched with
    /// Argon2id v1.3. Read it with ``Passphrase`` so that it never passes through a `String`.
    case passphrase(SecureBytes)

    /// `keyFile(path)` or `passphrase(<redacted>)`.
    public var description: String {
        switch self {
        case .keyFile(let path): "keyFile(\(path))"
        case .passphrase: "passphrase(\(SecureBytes.redactionMarker))"
        }
    }

    var headerID: StoreHeader.KeySourceID {
        switch self {
        case .keyFile: .keyFile
        case .passphrase: .passphrase
        }
    }

    var kindName: String {
        switch self {
        case .keyFile: "a key file"
        case .passphrase: "a passphrase"
        }
    }
}
