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
struct InitCommand: SWCredSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create an empty keychain file, protected by a key file (default) or a passphrase.",
        discussion: HelpExamples.discussion("init")
    )

    @OptionGroup var formatOptions: FormatOptions
    @OptionGroup var storeOptions: GlobalStoreOptions

    @Option(help: "Argon2id preset for a passphrase store: interactive, moderate (default) or sensitive.")
    var kdf: KDFChoice = .moderate

    @Flag(help: "Replace an existing store. Its contents are lost.")
    var force = false

    func execute(_ console: Console) async throws -> ExitStatus {
        let session = try storeOptions.session(console)
        let path = session.configuration.path
        let source = try session.keySource()
        var keyFilePath: String?
        var keyFileCreated = false
        if case .keyFile(let keyPath) = source {
            keyFilePath = keyPath
            keyFileCreated = !pathExists(keyPath)
        }
        if force && session.storeExists {
            console.warn("replacing the existing store at \(path); its contents are lost")
        }
        let store = try KeychainStore.create(at: path, keySource: source, preset: kdf.preset,
                                             options: session.configuration.options, replaceExisting: force)
        let created = (path: store.path, generation: store.generation)
        let usesPassphrase = keyFilePath == nil
        switch console.format {
        case .json:
            console.emitJSON(InitResult(
                store: created.path, keySource: usesPassphrase ? "passphrase" : "keyFile", keyFile: keyFilePath,
                keyFileCreated: keyFileCreated, kdf: usesPassphrase ? kdf.rawValue : nil, generation: created.generation))
        case .text:
            if let keyFilePath {
                console.out("created \(created.path) with \(keyFileCreated ? "a new" : "the") key file \(keyFilePath)")
            } else {
                console.out("created \(created.path), protected by a passphrase (Argon2id, \(kdf.rawValue))")
            }
        }
        return .success
    }
}

struct InitResult: Encodable {
    let store: String
    let keySource: String
    let keyFile: String?
    let keyFileCreated: Bool
    let kdf: String?
    let generation: UInt64

    private enum Keys: String, CodingKey { case store, keySource, keyFile, keyFileCreated, kdf, generation }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(store, forKey: .store)
        try c.encode(keySource, forKey: .keySource)
        try c.encode(keyFile, forKey: .keyFile)
        try c.encode(keyFileCreated, forKey: .keyFileCreated)
        try c.encode(kdf, forKey: .kdf)
        try c.encode(generation, forKey: .generation)
    }
}
