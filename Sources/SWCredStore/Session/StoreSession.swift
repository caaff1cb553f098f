public import FoundationEssentials
public import SWCredCore
public import SWCredSodium
import Synchronization

/// One program's way into one store: which file, which key, and the policy every command of
/// `swcred` shares (spec/store.md §4, cli.md "Store options").
///
/// A session reads its key material **once**: the passphrase is asked of its provider at most
/// once, and the store opened first (with its derived sub-keys) serves every later read and write
/// of the session. So `swcred add -U` on an existing item (an add-if-absent, then an update) reads
/// `--passphrase-stdin` once and runs Argon2id once.
///
/// The policy:
/// - **Key.** A passphrase provider when one is configured; otherwise the key file. When the key
///   file was not named explicitly and the store turns out to be passphrase-protected, the
///   ``Configuration/passphraseFallback`` is asked (a terminal prompt, say), once.
/// - **Create on first write.** ``modify(createIfMissing:_:)`` creates a missing store (a new key
///   file when none exists; with a passphrase, a passphrase store with ``Configuration/preset``)
///   and reports it through ``Configuration/onCreate``.
/// - **Rollback.** A reader that sees a newer generation's mark than the file it read retries in
///   the library (``KeychainStore/openAndRead(at:keySource:options:selection:)``); the session
///   adds no retry of its own.
///
/// Every call is synchronous and may block (Argon2id, lock waits, `fsync`).
public final class StoreSession: Sendable {
    /// What a session opens, and how.
    public struct Configuration: Sendable {
        /// The keychain file.
        public var path: String
        /// The key file used when no passphrase provider is given.
        public var keyFilePath: String
        /// Whether the key file was named explicitly (an option or environment variable): an
        /// explicit key file is never replaced by the passphrase fallback.
        package var keyFileIsExplicit: Bool
        /// The passphrase, when the store is opened with one (`--passphrase-stdin`, …).
        public var passphrase: (any PassphraseProvider)?
        /// Asked once when the key file is the default one and the store needs a passphrase.
        package var passphraseFallback: (any PassphraseProvider)?
        /// The library options (limits, lock timeout, rollback override, warnings).
        public var options: StoreOptions
        /// The Argon2id preset of a passphrase store created on first write.
        public var preset: KDFPreset
        /// Told when a write created the store.
        public var onCreate: (@Sendable (CreatedStore) -> Void)?

        /// Creates a configuration.
        public init(
            path: String,
            keyFilePath: String,
            keyFileIsExplicit: Bool = false,
            passphrase: (any PassphraseProvider)? = nil,
            passphraseFallback: (any PassphraseProvider)? = nil,
            options: StoreOptions = StoreOptions(),
            preset: KDFPreset = .moderate,
            onCreate: (@Sendable (CreatedStore) -> Void)? = nil
        ) {
            self.path = path
            self.keyFilePath = keyFilePath
            self.keyFileIsExplicit = keyFileIsExplicit
            self.passphrase = passphrase
            self.passphraseFallback = passphraseFallback
            self.options = options
            self.preset = preset
            self.onCreate = onCreate
        }
    }

    /// What a first write created.
    public struct CreatedStore: Sendable, Equatable {
        /// The store's resolved path.
        public var path: String
        /// The key file, for a key-file store.
        public var keyFile: String?
        /// Whether that key file was created with the store.
        public var keyFileIsNew: Bool

        /// What was created, as `swcred` says it on stderr.
        package var summary: String {
            guard let keyFile else { return "created a new passphrase-protected store at \(path)" }
            return "created a new store at \(path) with \(keyFileIsNew ? "a new" : "the") key file \(keyFile)"
        }
    }

    /// The configuration.
    public let configuration: Configuration

    private struct State: Sendable {
        var keySource: KeySource?
        var store: KeychainStore?
    }

    private let state = Mutex(State())

    /// Creates a session; nothing is read until the first call.
    public init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// Whether a store file (or anything else) exists at the configured path.
    public var storeExists: Bool { POSIX.lstat(configuration.path) != nil }

    /// The key source: the passphrase (read from its provider now, once) or the key file.
    package func keySource() throws(SWCredError) -> KeySource {
        if let known = state.withLock({ $0.keySource }) { return known }
        let source: KeySource
        if let provider = configuration.passphrase {
            source = .passphrase(try provider.passphrase())
        } else {
            source = .keyFile(path: configuration.keyFilePath)
        }
        state.withLock { $0.keySource = source }
        return source
    }

    // MARK: Reading

    /// Reads the store's contents (no lock; store.md §6 "Readers take no lock").
    /// - Parameter selection: which items to build (the whole payload is verified either way).
    public func read(selection: ReadSelection = .everything) throws(SWCredError) -> StoreSnapshot {
        try read(
            reading: { (store) throws(SWCredError) in try store.snapshot(selection: selection) },
            opening: { (path, source, options) throws(SWCredError) in
                try KeychainStore.openAndRead(at: path, keySource: source, options: options, selection: selection)
            })
    }

    /// A read of the store (no lock): `reading` on the store this session opened already, or
    /// `opening`, which opens it and reads at once, under the key policy.
    func read<R>(
        reading: (KeychainStore) throws(SWCredError) -> R,
        opening: (String, KeySource, StoreOptions) throws(SWCredError) -> (KeychainStore, R)
    ) throws(SWCredError) -> R {
        if let store = state.withLock({ $0.store }) { return try reading(store) }
        let options = configuration.options
        return try withKeyPolicy { (path, source) throws(SWCredError) in
            let (store, value) = try opening(path, source, options)
            keep(store)
            return value
        }
    }

    /// The open store: the one this session opened already, or the store opened now (header,
    /// key and MAC checked; the payload is verified by the first read or transaction).
    package func store() throws(SWCredError) -> KeychainStore {
        if let store = state.withLock({ $0.store }) { return store }
        let options = configuration.options
        return try withKeyPolicy { (path, source) throws(SWCredError) in
            let store = try KeychainStore.openForWriting(at: path, keySource: source, options: options)
            keep(store)
            return store
        }
    }

    // MARK: Writing

    /// Runs `body` as one write transaction under the store's lock (store.md §6). With
    /// `createIfMissing`, a missing store is created first and reported to
    /// ``Configuration/onCreate``.
    /// - Throws: `storeNotFound` (no store and no `createIfMissing`), the open and write errors of
    ///   ``KeychainStore``, or what `body` throws (a non-`SWCredError` becomes `internalError`).
    public func modify<R>(
        createIfMissing: Bool, _ body: (inout StoreContents, Date) throws(SWCredError) -> R
    ) throws(SWCredError) -> R {
        let store = createIfMissing ? try storeCreatingIfMissing() : try store()
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

    /// Adds `item` to an existing store unless its key exists (or, with
    /// `refusingServersNeverSaved`, a "Passwords not saved" entry for its server): one write
    /// transaction that builds none of the store's other items
    /// (``KeychainStore/addIfAbsent(_:refusingServersNeverSaved:)``).
    /// - Returns: what happened, or `nil` when there is no store yet (nothing was done).
    public func addIfAbsent(
        _ item: InternetPasswordItem, refusingServersNeverSaved: Bool
    ) throws(SWCredError) -> KeychainStore.AddIfAbsentOutcome? {
        guard state.withLock({ $0.store }) != nil || storeExists else { return nil }
        return try store().addIfAbsent(item, refusingServersNeverSaved: refusingServersNeverSaved)
    }

    /// The open store, created first when no file exists (or opened, when another process created
    /// it in between).
    package func storeCreatingIfMissing() throws(SWCredError) -> KeychainStore {
        if let store = state.withLock({ $0.store }) { return store }
        guard !storeExists else { return try store() }
        let source = try keySource()
        var newKeyFile = false
        if case .keyFile(let keyPath) = source { newKeyFile = POSIX.lstat(keyPath) == nil }
        let (store, created) = try KeychainStore.openOrCreate(
            at: configuration.path, keySource: source, preset: configuration.preset, options: configuration.options)
        keep(store)
        if created {
            var keyFile: String?
            if case .keyFile(let keyPath) = source { keyFile = keyPath }
            configuration.onCreate?(CreatedStore(path: store.path, keyFile: keyFile, keyFileIsNew: newKeyFile))
        }
        return store
    }

    // MARK: Key policy

    private func keep(_ store: KeychainStore) {
        state.withLock { $0.store = store }
    }

    /// Runs `open` with the session's key source; when that is the default key file and the store
    /// is passphrase-protected, asks the fallback provider once and runs `open` again with it.
    private func withKeyPolicy<R>(
        _ open: (String, KeySource) throws(SWCredError) -> R
    ) throws(SWCredError) -> R {
        let path = configuration.path
        let source = try keySource()
        do {
            return try open(path, source)
        } catch where error.code == .wrongKey {
            guard case .keyFile = source, !configuration.keyFileIsExplicit,
                  let fallback = configuration.passphraseFallback,
                  (try? KeychainStore.inspect(at: path, limits: configuration.options.limits))?.usesKeyFile == false
            else { throw error }
            let passphrase = KeySource.passphrase(try fallback.passphrase())
            state.withLock { $0.keySource = passphrase }
            return try open(path, passphrase)
        }
    }
}

/// Where a store's passphrase comes from: standard input, a file, a descriptor, a terminal
/// prompt, or a test's constant. A ``StoreSession`` asks it at most once.
public protocol PassphraseProvider: Sendable {
    /// The passphrase, in guarded memory.
    /// - Throws: `invalidParameter` (empty, too long), `interactionNotAllowed` (no terminal to
    ///   ask on), `ioFailure`, or the provider's own errors.
    func passphrase() throws(SWCredError) -> SecureBytes
}
