package import SWCredCore

/// Which store and which key a program's options and environment select, with the precedence of
/// cli.md ("Global store options"): an option wins over its environment variable
/// (`SWCRED_STORE`, `SWCRED_KEY_FILE`, `SWCRED_PASSPHRASE_FILE`), and both over the XDG defaults.
///
/// A passphrase source selects passphrase mode; otherwise the store is opened with its key file.
/// `SWCRED_PASSPHRASE_FILE` is ignored when a key file is named by option.
package struct StoreSelection: Sendable {
    /// The keychain file named by option.
    package var store: String?
    /// The key file named by option.
    package var keyFile: String?
    /// The passphrase source named by option.
    package var passphrase: SecretSource?
    /// The program's environment.
    package var environment: [String: String]

    /// A selection from options and an environment.
    package init(store: String?, keyFile: String?, passphrase: SecretSource?, environment: [String: String]) {
        self.store = store
        self.keyFile = keyFile
        self.passphrase = passphrase
        self.environment = environment
    }

    /// The passphrase source: the option's, else `SWCRED_PASSPHRASE_FILE` (unless a key file is
    /// named by option); `nil` for a key-file store.
    package var passphraseSource: SecretSource? {
        if let passphrase { return passphrase }
        if keyFile == nil, let path = environment["SWCRED_PASSPHRASE_FILE"], !path.isEmpty { return .file(path) }
        return nil
    }

    /// Whether a key file was named (`--key-file` or `SWCRED_KEY_FILE`): such a key file is never
    /// replaced by the passphrase fallback.
    package var keyFileIsExplicit: Bool {
        keyFile != nil || !(environment["SWCRED_KEY_FILE"] ?? "").isEmpty
    }

    /// The session configuration of this selection.
    /// - Parameters:
    ///   - options: the library options; without a state directory, the rollback marks go to the
    ///     environment's XDG state folder.
    ///   - passphrase: the provider of a passphrase source; given `nil`, the fallback asked when the
    ///     default key file meets a passphrase store.
    ///   - onCreate: told when a write created the store.
    /// - Throws: `invalidParameter` when no path can be found (no option, variable or `HOME`).
    package func configuration(
        options: StoreOptions, passphrase provider: (SecretSource?) -> any PassphraseProvider,
        onCreate: (@Sendable (StoreSession.CreatedStore) -> Void)? = nil
    ) throws(SWCredError) -> StoreSession.Configuration {
        var options = options
        if options.stateDirectory == nil {
            options.stateDirectory = try? StorePaths.stateDirectory(environment: environment)
        }
        return StoreSession.Configuration(
            path: try StorePaths.storePath(explicit: store, environment: environment),
            keyFilePath: try StorePaths.keyFilePath(explicit: keyFile, environment: environment),
            keyFileIsExplicit: keyFileIsExplicit,
            passphrase: passphraseSource.map(provider),
            passphraseFallback: provider(nil),
            options: options,
            onCreate: onCreate)
    }
}
