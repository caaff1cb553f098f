import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredSodium
import SWCredStore

/// The Argon2id preset chosen on the command line (store.md §4.3).
///
/// `interactive`, `moderate` (the default) and `sensitive`. The `test` preset (opslimit 1,
/// memlimit 8 KiB) is accepted only by debug builds, so that multi-process tests do not each
/// allocate 256 MiB; a release build does not even parse it (store.md §4.3: "never from a release CLI").
enum KDFChoice: String, CaseIterable, ExpressibleByArgument, Sendable {
    case interactive, moderate, sensitive
    #if DEBUG
    case test
    #endif

    /// `--kdf`'s help, the same in every build (the man page is generated from a debug build): it
    /// names the presets a release accepts and says that a debug build also takes `test`.
    static let help = "Argon2id preset for a passphrase store: interactive, moderate (default) or sensitive "
        + "(debug builds of swcred also take test, for tests only)."

    var preset: KDFPreset {
        switch self {
        case .interactive: return .interactive
        case .moderate: return .moderate
        case .sensitive: return .sensitive
        #if DEBUG
        case .test: return .test
        #endif
        }
    }
}

/// `swcred init`: creates an empty store (cli.md "Store lifecycle").
///
/// Without a passphrase source the store uses a key file: the one given (`--key-file`,
/// `SWCRED_KEY_FILE`) or the default `$XDG_CONFIG_HOME/swcred/keychain.key`, created with 32
/// random bytes (mode 0600) when missing; an existing key file is used, never overwritten. With
/// `--passphrase-stdin|file|fd` (or `SWCRED_PASSPHRASE_FILE`) the store is passphrase-protected,
/// Argon2id with `--kdf` (default `moderate`).
///
/// An existing store fails with `storeExists` (24) unless `--force`, which replaces it (its
/// contents are lost; a warning says so). JSON:
/// `{"schema","store","keySource":"keyFile|passphrase","keyFile","keyFileCreated","kdf","generation"}`.
struct InitCommand: StoreSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "init", abstract: "Create an empty keychain file, protected by a key file (default) or a passphrase.")

    @OptionGroup var storeOptions: GlobalStoreOptions

    @Option(help: ArgumentHelp(KDFChoice.help))
    var kdf: KDFChoice = .moderate

    @Flag(help: "Replace an existing store. Its contents are lost.")
    var force = false

    @Flag(
        name: .customLong("rollback-protection"),
        help: "Refuse older copies of this store (store.md §5): off by default, so that copied fixtures keep working.")
    var rollbackProtection = false

    func execute(_ console: Console) async throws -> ExitStatus {
        let session = try storeOptions.session(console)
        if force && session.storeExists {
            console.warn("replacing the existing store at \(session.configuration.path); its contents are lost")
        }
        let created = try session.create(preset: kdf.preset, replaceExisting: force, rollbackProtection: rollbackProtection)
        console.emit(KeyChangeResult(created, kdf: kdf, reportsKeyFileCreation: true)) {
            if let keyFile = created.keyFile {
                let which = created.keyFileCreated ? "a new" : "the"
                console.out("created \(created.path) with \(which) key file \(keyFile)")
            } else {
                console.out("created \(created.path), protected by a passphrase (Argon2id, \(kdf.rawValue))")
            }
        }
        return .success
    }
}

/// cli.md `init` and `rekey`: `{"schema","store","keySource","keyFile","keyFileCreated","kdf","generation"}`,
/// `keyFileCreated` from `init` only.
struct KeyChangeResult: Encodable {
    let store: String
    let keySource: String
    @ExplicitNull var keyFile: String?
    let keyFileCreated: Bool?
    @ExplicitNull var kdf: String?
    let generation: UInt64

    init(_ change: StoreKeyChange, kdf: KDFChoice, reportsKeyFileCreation: Bool) {
        store = change.path
        keySource = change.usesPassphrase ? "passphrase" : "keyFile"
        keyFile = change.keyFile
        keyFileCreated = reportsKeyFileCreation ? change.keyFileCreated : nil
        self.kdf = change.usesPassphrase ? kdf.rawValue : nil
        generation = change.generation
    }
}
