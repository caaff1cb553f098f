import SWCredCore
import SWCredSodium

/// The three sub-keys of a store (spec/store.md §4.4), derived from the 32-byte master key with
/// `crypto_kdf_derive_from_key` and the context `swcredv1`: id 1 header MAC, id 2 payload,
/// id 3 rollback state entry. All in one guarded allocation (``KeyDerivation/deriveSubkeys(from:ids:context:length:)``).
final class StoreKeys: Sendable {
    static let context = "swcredv1"

    let headerMAC: SecureBytes
    let payload: SecureBytes
    let state: SecureBytes

    init(masterKey: SecureBytes) throws(SWCredError) {
        let keys = try KeyDerivation.deriveSubkeys(from: masterKey, ids: [1, 2, 3], context: Self.context)
        headerMAC = keys[0]
        payload = keys[1]
        state = keys[2]
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
