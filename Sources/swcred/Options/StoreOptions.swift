import ArgumentParser
import Foundation
import SWCredCore
import SWCredSodium
import SWCredStore

/// The global store options of cli.md: which keychain file, and which key opens it. (Named apart
/// from the library's `SWCredStore.StoreOptions`, which ``libraryOptions()`` builds from these.)
///
/// | option | env |
/// | --- | --- |
/// | `--store PATH` | `SWCRED_STORE` |
/// | `--key-file PATH` | `SWCRED_KEY_FILE` |
/// | `--passphrase-stdin` / `--passphrase-file PATH` / `--passphrase-fd N` | `SWCRED_PASSPHRASE_FILE` |
///
/// An option wins over its environment variable. Giving any passphrase source selects passphrase
/// mode; otherwise the store is opened with its key file. Giving both `--key-file` and a
/// passphrase option is a usage error (64); `SWCRED_PASSPHRASE_FILE` is ignored when `--key-file`
/// is given.
struct GlobalStoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The keychain file (env SWCRED_STORE).", valueName: "path"))
    var store: String?

    @Option(help: ArgumentHelp("The 32-byte key file of a key-file store (env SWCRED_KEY_FILE).", valueName: "path"))
    var keyFile: String?

    @Flag(help: "Read the store's passphrase from standard input.")
    var passphraseStdin = false

    @Option(help: ArgumentHelp("Read the store's passphrase from a file (mode 0600; env SWCRED_PASSPHRASE_FILE).",
                               valueName: "path"))
    var passphraseFile: String?

    @Option(help: ArgumentHelp("Read the store's passphrase from an inherited file descriptor.", valueName: "n"))
    var passphraseFd: Int32?

    @Option(help: ArgumentHelp("Seconds to wait for the store's write lock; 0 tries once.", valueName: "seconds"))
    var lockTimeout: Double?

    @Flag(help: "Open a store older than the last one seen (rollback), with a warning.")
    var allowRollback = false

    /// The process environment (for `SWCRED_STORE`, `SWCRED_KEY_FILE`, `SWCRED_PASSPHRASE_FILE`, XDG).
    var environment: [String: String] { ProcessInfo.processInfo.environment }

    func validate() throws {
        let sources = [passphraseStdin, passphraseFile != nil, passphraseFd != nil].filter { $0 }.count
        if sources > 1 {
            throw ValidationError("give at most one of --passphrase-stdin, --passphrase-file and --passphrase-fd")
        }
        if sources == 1 && keyFile != nil {
            throw ValidationError("--key-file and a passphrase source exclude each other")
        }
        if let lockTimeout, !(lockTimeout >= 0 && lockTimeout <= 3600) {
            throw ValidationError("--lock-timeout must be between 0 and 3600 seconds")
        }
        if let passphraseFd, passphraseFd < 0 {
            throw ValidationError("--passphrase-fd must be a non-negative descriptor number")
        }
    }

    /// The passphrase source given by an option or by `SWCRED_PASSPHRASE_FILE`, if any.
    var passphraseSource: SecretSource? {
        if passphraseStdin { return .standardInput }
        if let passphraseFile { return .file(passphraseFile) }
        if let passphraseFd { return .descriptor(passphraseFd) }
        if keyFile == nil, let path = environment["SWCRED_PASSPHRASE_FILE"], !path.isEmpty { return .file(path) }
        return nil
    }

    /// The keychain path: `--store`, else `SWCRED_STORE`, else the XDG default (cli.md).
    func storePath() throws(SWCredError) -> String {
        try StorePaths.storePath(explicit: store, environment: environment)
    }

    /// The key-file path: `--key-file`, else `SWCRED_KEY_FILE`, else the XDG default (cli.md).
    func keyFilePath() throws(SWCredError) -> String {
        try StorePaths.keyFilePath(explicit: keyFile, environment: environment)
    }

    /// Refuses reading the passphrase and the item password from the same stream (store.md §8:
    /// "never read from the same stream implicitly").
    func checkDistinctStreams(passwordSource: SecretSource?) throws(SWCredError) {
        if passwordSource == .standardInput && passphraseSource == .standardInput {
            throw SWCredError(.usage, "--password-stdin and --passphrase-stdin cannot both read standard input; "
                + "give the passphrase with --passphrase-file or --passphrase-fd")
        }
    }
}

// MARK: - Opening the store

extension GlobalStoreOptions {
    /// The library options from the command line: the lock timeout (default 5 s) and the
    /// rollback override; warnings go to stderr as `swcred: warning: …`.
    func libraryOptions() -> SWCredStore.StoreOptions {
        var options = SWCredStore.StoreOptions(allowRollback: allowRollback)
        if let lockTimeout { options.lockTimeout = .milliseconds(Int((lockTimeout * 1000).rounded())) }
        return options
    }

    /// The key source the options select: a passphrase (read now, into guarded memory) when a
    /// passphrase source is given, else the key file.
    func keySource() throws(SWCredError) -> KeySource {
        if let source = passphraseSource {
            let passphrase = try SecretInput.read(source, what: "passphrase")
            TestPausePoint.pauseIfRequested("after-passphrase")
            return .passphrase(passphrase)
        }
        return .keyFile(path: try keyFilePath())
    }

    /// Whether a key file was named explicitly (`--key-file` or `SWCRED_KEY_FILE`).
    var keyFileGiven: Bool {
        keyFile != nil || !(environment["SWCRED_KEY_FILE"] ?? "").isEmpty
    }

    /// Opens an existing store. When neither a passphrase source nor a key file was given and the
    /// store turns out to be passphrase-protected, the passphrase is asked on the terminal, or,
    /// without a terminal, the open fails with `interactionNotAllowed` (29). A key file given
    /// explicitly for a passphrase store is `wrongKey` (20, reason: key source).
    func openStore() throws(SWCredError) -> KeychainStore {
        try openStore { (store: KeychainStore) throws(SWCredError) in store }
    }

    /// Opens the store and runs `use` on it; see ``openStore()``. The key material is read once;
    /// the open (and `use`) is retried when a concurrent writer makes it look rolled back.
    func openStore<R>(then use: (KeychainStore) throws(SWCredError) -> R) throws(SWCredError) -> R {
        try opening({ (path, source, options) throws(SWCredError) in
            try KeychainStore.open(at: path, keySource: source, options: options)
        }, then: use)
    }

    /// Opens the store to write to it: the header, key and MAC are checked, the payload is left
    /// to the write transaction, which verifies the whole file under the lock (so that a one-shot
    /// write decrypts and decodes the store once, not twice); see ``openStore()``.
    func openStoreForWriting() throws(SWCredError) -> KeychainStore {
        try opening({ (path, source, options) throws(SWCredError) in
            try KeychainStore.openForWriting(at: path, keySource: source, options: options)
        }, then: { (store: KeychainStore) throws(SWCredError) in store })
    }

    /// Opens the store and reads its contents in the same pass (one read and one decryption,
    /// where opening and then taking a snapshot would decrypt twice); see ``openStore()``.
    /// `selection` limits which items are built (the whole payload is verified either way).
    func openStoreAndRead(selection: ReadSelection = .everything) throws(SWCredError) -> StoreSnapshot {
        try opening({ (path, source, options) throws(SWCredError) in
            try KeychainStore.openAndRead(at: path, keySource: source, options: options, selection: selection).snapshot
        }, then: { (snapshot: StoreSnapshot) throws(SWCredError) in snapshot })
    }

    /// The key source policy shared by every open: the given or default key material, then (for
    /// a passphrase store opened without one) the passphrase prompt; `open` runs under
    /// ``retryingConcurrentRollback(_:)``.
    private func opening<T, R>(
        _ open: (String, KeySource, StoreOptions) throws(SWCredError) -> T,
        then use: (T) throws(SWCredError) -> R
    ) throws(SWCredError) -> R {
        let path = try storePath()
        let options = libraryOptions()
        let source = try keySource()
        do {
            return try retryingConcurrentRollback { () throws(SWCredError) -> R in
                try use(try open(path, source, options))
            }
        } catch where passphraseSource == nil && !keyFileGiven && error.code == .wrongKey
            && (try? KeychainStore.inspect(at: path, limits: options.limits))?.usesKeyFile == false
        {
            let input = try SecretInput.resolve(nil, what: "passphrase")
            let passphrase = KeySource.passphrase(try SecretInput.read(input, what: "passphrase"))
            TestPausePoint.pauseIfRequested("after-passphrase")
            return try retryingConcurrentRollback { () throws(SWCredError) -> R in
                try use(try open(path, passphrase, options))
            }
        }
    }

    /// Runs `body` again (at most twice more) when it fails with `rollbackDetected`.
    ///
    /// Why: a reader without the lock can read generation g, and before it compares g with the
    /// high-water mark, another process renames generation g + 1 into place and raises the mark to
    /// g + 1; the comparison then looks like a rollback although the file on disk is newer. The
    /// mark is raised only after the new file is in place, so reading again sees a generation at
    /// least as high as the mark — unless the file really was rolled back, which fails again.
    func retryingConcurrentRollback<R>(_ body: () throws(SWCredError) -> R) throws(SWCredError) -> R {
        var attempt = 0
        while true {
            do {
                return try body()
            } catch where error.code == .rollbackDetected && attempt < 2 {
                attempt += 1
            }
        }
    }

    /// Runs `body` on a snapshot of the store's contents (no lock; store.md §6 "Readers take no lock").
    /// `selection` limits which items `body` sees (only those it selects are built).
    func read<R: Sendable>(
        console: Console, selection: ReadSelection = .everything,
        _ body: @escaping @Sendable (StoreContents) throws(SWCredError) -> R
    ) async throws(SWCredError) -> R {
        try await readSnapshot(console: console, selection: selection) { (snapshot: StoreSnapshot) throws(SWCredError) -> R in
            try body(snapshot.contents)
        }
    }

    /// Runs `body` on a snapshot of the store: contents and generation (no lock).
    func readSnapshot<R: Sendable>(
        console: Console, selection: ReadSelection = .everything,
        _ body: @escaping @Sendable (StoreSnapshot) throws(SWCredError) -> R
    ) async throws(SWCredError) -> R {
        let options = self
        return try await Blocking.run { () throws(SWCredError) -> R in
            return try body(try options.openStoreAndRead(selection: selection))
        }
    }

    /// Runs `body` as one write transaction under the store's lock (store.md §6). With
    /// `createIfMissing`, a missing store is created first (a fresh key file when none exists;
    /// with a passphrase source, a passphrase store with the moderate preset), and that is said
    /// on stderr (cli.md).
    func modify<R: Sendable>(
        console: Console, createIfMissing: Bool,
        _ body: @escaping @Sendable (inout StoreContents, Date) throws(SWCredError) -> R
    ) async throws(SWCredError) -> R {
        let options = self
        return try await Blocking.run { () throws(SWCredError) -> R in
            let store: KeychainStore
            if createIfMissing, pathExists(try options.storePath()) == false {
                store = try options.createOnFirstWrite(console: console)
            } else {
                store = try options.openStoreForWriting()
            }
            do {
                return try store.transaction { (contents: inout StoreContents, now: Date) throws -> R in
                    try body(&contents, now)
                }
            } catch let error as SWCredError {
                throw error
            } catch {
                throw SWCredError(.internalError, "unexpected error in a store transaction: \(error)")
            }
        }
    }

    /// Adds `item` to an existing store unless its key, or a "Passwords not saved" entry for its
    /// server, exists (``KeychainStore/addIfAbsent(_:refusingServersNeverSaved:)``: one write
    /// transaction that builds none of the store's other items).
    /// - Returns: what happened, or `nil` when there is no store yet (nothing was done).
    func addIfAbsent(_ item: InternetPasswordItem) async throws(SWCredError) -> KeychainStore.AddIfAbsentOutcome? {
        let options = self
        return try await Blocking.run { () throws(SWCredError) -> KeychainStore.AddIfAbsentOutcome? in
            guard pathExists(try options.storePath()) else { return nil }
            return try options.openStoreForWriting().addIfAbsent(item, refusingServersNeverSaved: true)
        }
    }

    /// Creates the store on a first write, or opens it when another process created it first.
    private func createOnFirstWrite(console: Console) throws(SWCredError) -> KeychainStore {
        let path = try storePath()
        let source = try keySource()
        var newKeyFile: String?
        if case .keyFile(let keyPath) = source, !pathExists(keyPath) { newKeyFile = keyPath }
        let options = libraryOptions()
        let (store, created) = try retryingConcurrentRollback { () throws(SWCredError) in
            try KeychainStore.openOrCreate(at: path, keySource: source, options: options)
        }
        if created {
            if let newKeyFile {
                console.err("swcred: created a new store at \(store.path) with a new key file \(newKeyFile)")
            } else if case .keyFile(let keyPath) = source {
                console.err("swcred: created a new store at \(store.path) with the key file \(keyPath)")
            } else {
                console.err("swcred: created a new passphrase-protected store at \(store.path)")
            }
        }
        return store
    }
}

/// Whether something exists at `path` (without following a final symbolic link).
func pathExists(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0
}

/// Runs blocking store work (Argon2id, lock waits, `fsync`) for a command.
///
/// **Decision:** the work runs inline, on the command's own task, not on a thread of its own.
/// A `swcred` process runs exactly one command, so there is no other task on Swift's cooperative
/// pool for it to starve (the concern of STYLE.md "Blocking work stays off the cooperative pool",
/// which the library's async callers, such as SWCredKit's store backend, follow). Running inline
/// keeps every system call of one command on one thread, which the T5 fault-injection test relies
/// on: strace's `inject=…:when=N` counts calls per thread, and a second thread would make the N-th
/// `write` of the output thread fail together with the N-th `write` of the store's write path.
enum Blocking {
    static func run<R: Sendable>(_ work: @escaping @Sendable () throws(SWCredError) -> R) async throws(SWCredError) -> R {
        try work()
    }
}
