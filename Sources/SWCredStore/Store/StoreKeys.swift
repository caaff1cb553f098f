import SWCredCore
import SWCredSodium

/// The three sub-keys of a store (spec/store.md §4.4), derived from the 32-byte master key with
/// `crypto_kdf_derive_from_key` and the context `swcredv1`: id 1 header MAC, id 2 payload,
/// id 3 rollback state entry. All in guarded memory.
final class StoreKeys: Sendable {
    static let context = "swcredv1"

    let headerMAC: SecureBytes
    let payload: SecureBytes
    let state: SecureBytes

    init(masterKey: SecureBytes) throws(SWCredError) {
        headerMAC = try KeyDerivation.deriveSubkey(from: masterKey, id: 1, context: Self.context)
        payload = try KeyDerivation.deriveSubkey(from: masterKey, id: 2, context: Self.context)
        state = try KeyDerivation.deriveSubkey(from: masterKey, id: 3, context: Self.context)
    }

    /// Reads the key file or runs Argon2id with the header's parameters (never the library's
    /// constants), then derives the sub-keys. Blocks for the KDF's duration.
    static func derive(
        source: KeySource,
        parameters: StoreHeader.KeyParameters,
        options: StoreOptions
    ) throws(SWCredError) -> StoreKeys {
        switch source {
        case .keyFile(let path):
            return try StoreKeys(masterKey: try KeyFile.load(at: path))
        case .passphrase(let passphrase):
            try Passphrase.validate(passphrase, limits: options.limits)
            options.passphraseDerivationObserver?()
            let argon = parameters.argon2
            let interactive = KDFPreset.interactive.parameters
            if argon.opsLimit < interactive.opsLimit || argon.memLimit < interactive.memLimit {
                options.warningHandler("the store's KDF parameters (\(argon)) are below the interactive preset")
            }
            let master = try Argon2id.deriveKey(
                passphrase: passphrase, salt: parameters.salt, parameters: argon, outputLength: KeyDerivation.masterKeyLength
            )
            return try StoreKeys(masterKey: master)
        }
    }
}
