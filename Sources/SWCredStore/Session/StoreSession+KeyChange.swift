package import SWCredCore
package import SWCredSodium

/// What creating a store or moving it to new key material left (`swcred init`, `swcred rekey`).
package struct StoreKeyChange: Sendable, Equatable {
    /// The store's file.
    package var path: String
    /// The key file that now protects the store; `nil` for a passphrase store.
    package var keyFile: String?
    /// Whether that key file was made by this call (it is never overwritten).
    package var keyFileCreated: Bool
    /// The store's generation after the call (store.md §5).
    package var generation: UInt64

    /// Whether the store is now protected by a passphrase.
    package var usesPassphrase: Bool { keyFile == nil }
}

extension StoreSession {
    /// Creates an empty store at the configured path, protected by the session's key material
    /// (store.md §4): the passphrase (read from its provider now) under `preset`, or the key file,
    /// created with 32 random bytes when missing and used as it is when present.
    /// - Parameters:
    ///   - replaceExisting: replace a store that exists (its contents are lost).
    ///   - rollbackProtection: turn rollback protection on (store.md §5; off by default).
    /// - Throws: `storeExists` when a store exists and `replaceExisting` is false; the errors of
    ///   reading the passphrase and of `KeychainStore.create`.
    package func create(
        preset: KDFPreset, replaceExisting: Bool, rollbackProtection: Bool = false
    ) throws(SWCredError) -> StoreKeyChange {
        let source = try keySource()
        let keyFile = source.keyFilePath
        let keyFileCreated = keyFile.map { POSIX.lstat($0) == nil } ?? false
        let store = try KeychainStore.create(
            at: configuration.path, keySource: source, preset: preset, options: configuration.options,
            replaceExisting: replaceExisting, rollbackProtection: rollbackProtection)
        return StoreKeyChange(
            path: store.path, keyFile: keyFile, keyFileCreated: keyFileCreated, generation: store.generation)
    }

    /// Moves the store to `newSource` (store.md §4.7): the whole file is read and verified under
    /// the lock with the current key material, then rewritten with a new salt, sub-keys and
    /// nonce, the same store id and the next generation.
    /// - Throws: `invalidParameter` for weaker KDF parameters without `allowWeakerParameters`; the
    ///   errors of opening the store and of `KeychainStore.rekey`.
    package func rekey(
        to newSource: KeySource, preset: KDFPreset, allowWeakerParameters: Bool
    ) throws(SWCredError) -> StoreKeyChange {
        let store = try store()
        try store.rekey(to: newSource, preset: preset, allowWeakerParameters: allowWeakerParameters)
        return StoreKeyChange(
            path: store.path, keyFile: newSource.keyFilePath, keyFileCreated: false, generation: store.generation)
    }
}

extension KeySource {
    /// The key file's path, or `nil` for a passphrase.
    package var keyFilePath: String? {
        if case .keyFile(let path) = self { return path }
        return nil
    }
}
