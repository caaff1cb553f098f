import FoundationEssentials
public import SWCredCore
public import SWCredSodium
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A point-in-time view of a store: its decrypted contents and the generation they came from.
public struct StoreSnapshot: Sendable {
    /// The decrypted contents.
    public let contents: StoreContents
    /// The file's generation counter.
    package let generation: UInt64
    /// The store id (16 bytes, never changes).
    package let storeID: [UInt8]
    /// What was built: ``ReadSelection/everything`` unless the reader asked for less, in which
    /// case ``contents`` holds only the selected items (association records and settings in full).
    package var selection: ReadSelection = .everything

    /// Creates a snapshot.
    package init(contents: StoreContents, generation: UInt64, storeID: [UInt8], selection: ReadSelection = .everything) {
        self.contents = contents
        self.generation = generation
        self.storeID = storeID
        self.selection = selection
    }
}

/// swcred's encrypted keychain file (spec/store.md).
///
/// A store is one file: a plaintext header (format, key source, KDF parameters, nonce, store id,
/// generation, payload length, keyed BLAKE2b MAC, BLAKE2b checksum) followed by the
/// XChaCha20-Poly1305 encryption of the canonical binary payload (see ``StoreFormat``).
///
/// - ``create(at:keySource:preset:options:replaceExisting:)`` makes a new store (generation 1).
/// - ``open(at:keySource:options:)`` verifies the file and keeps the derived sub-keys.
/// - ``transaction(expectedGeneration:_:)`` is the only way to change a store: it takes the lock,
///   reads and verifies the current file, runs the closure on the contents, and writes a new
///   generation atomically (temporary file 0600, `fsync`, rename, directory `fsync`) only if the
///   closure changed something.
/// - ``snapshot(selection:)`` reads without a lock (a rename replaces the file, so a reader sees the whole
///   old or the whole new file).
/// - ``rekey(to:preset:allowWeakerParameters:)`` moves the store to another key source.
///
/// Every call is synchronous and may block (Argon2id, lock waits, `fsync`). Call it from a thread
/// of your own (or a `DispatchQueue`), not from Swift's cooperative pool.
///
/// Each call opens its own lock descriptor, so several instances for one file, in one process
/// or many, exclude one another through `flock`.
///
/// - ``beginTransaction(expectedGeneration:)`` holds a transaction open across several steps
///   (many changes, one durable write): the bulk-write API for batches and imports.
///
/// The type's code is split by concern: this file (creating, opening, key material),
/// `KeychainStore+Read.swift` (snapshots and the verification steps of the read order) and
/// `KeychainStore+Write.swift` (transactions, rekeying, sealing a file).
///
/// ```swift
/// let store = try KeychainStore.open(at: path, keySource: .keyFile(path: keyPath))
/// try store.transaction { contents, now in
///     try contents.add(InternetPasswordItem(server: "example.com", account: "alice", secret: Array("pw".utf8)), at: now)
/// }
/// ```
public final class KeychainStore: Sendable {
    /// The keychain file's resolved real path.
    public let path: String
    /// The 16-byte store id.
    package let storeID: [UInt8]
    /// The options the store was opened with.
    package let options: StoreOptions

    struct OpenState: Sendable {
        var keySource: KeySource
        var keys: StoreKeys
        var keyParameters: StoreHeader.KeyParameters
        var generation: UInt64
    }

    let state: Mutex<OpenState>

    private init(path: String, storeID: [UInt8], options: StoreOptions, state: OpenState) {
        self.path = path
        self.storeID = storeID
        self.options = options
        self.state = Mutex(state)
    }

    /// The lock file's path (`<resolved path>.lock`).
    package var lockPath: String { StorePaths.lockPath(forStore: path) }

    /// The highest generation this instance has read or written.
    package var generation: UInt64 { state.withLock { $0.generation } }

    /// The Argon2id parameters of a passphrase store, `nil` for a key-file store.
    package var kdfParameters: Argon2idParameters? {
        state.withLock { $0.keyParameters.kdf == .argon2id13 ? $0.keyParameters.argon2 : nil }
    }

    /// Whether the store uses a key file (`true`) or a passphrase (`false`).
    package var usesKeyFile: Bool { state.withLock { $0.keyParameters.keySource == .keyFile } }

    // MARK: Create

    /// Creates a new store (generation 1, a fresh store id, empty contents).
    ///
    /// In key-file mode a missing key file is created first (32 random bytes, 0600); an existing
    /// one is used after its checks. In passphrase mode a fresh 16-byte salt is drawn and Argon2id
    /// runs with `preset`. Missing directories are created 0700; the store's directory must be
    /// owned by the user and not writable by group or others.
    ///
    /// - Parameters:
    ///   - path: the keychain file.
    ///   - keySource: the key file or passphrase.
    ///   - preset: the Argon2id preset for a passphrase (ignored for a key file). `.test` is
    ///     refused in release builds.
    ///   - options: limits, timeout, clock, state directory.
    ///   - replaceExisting: replace an existing store instead of failing.
    ///   - rollbackProtection: turn rollback protection on (store.md §5; off by default).
    ///   - Warning: `replaceExisting` destroys the existing store's contents.
    /// - Returns: the open store.
    /// - Throws: `storeExists` (a store exists and `replaceExisting` is false), `invalidParameter`
    ///   (passphrase length, test preset in release), `invalidKeyFile`, `insecurePermissions`,
    ///   `resourceExhausted`, `busy`, `limitExceeded`, `ioFailure`.
    package static func create(
        at path: String,
        keySource: KeySource,
        preset: KDFPreset = .moderate,
        options: StoreOptions = StoreOptions(),
        replaceExisting: Bool = false,
        rollbackProtection: Bool = false
    ) throws(SWCredError) -> KeychainStore {
        #if !DEBUG
        if case .passphrase = keySource, preset == .test {
            throw SWCredError(.invalidParameter, "the test KDF preset is available to tests only")
        }
        #endif
        let resolved = try resolveForCreation(path)
        if POSIX.lstat(resolved) != nil, !replaceExisting {
            throw SWCredError(.storeExists, "a store already exists at \(resolved)")
        }
        let (parameters, keys) = try newKeyMaterial(keySource, preset: preset, options: options)
        let lock = try FileLock.acquire(
            path: StorePaths.lockPath(forStore: resolved), timeout: options.lockTimeout, what: "the store",
            label: "keychain"
        )
        defer { lock.release() }
        let (directory, name) = POSIX.split(resolved)
        AtomicFile.removeStrayTemporaries(directory: directory, name: name)
        if POSIX.lstat(resolved) != nil, !replaceExisting {
            throw SWCredError(.storeExists, "a store already exists at \(resolved)")
        }
        let storeID = try options.random(StoreHeader.storeIDLength, .storeID)
        var contents = StoreContents(creationDate: options.clock.now())
        contents.rollbackProtection = rollbackProtection
        let file = try withPayload(of: contents) { plaintext throws(SWCredError) in
            try seal(
                plaintext: plaintext, parameters: parameters, storeID: storeID, generation: 1, keys: keys,
                options: options)
        }
        let existsPath = resolved
        try AtomicFile.write(
            file, to: resolved,
            replace: replaceExisting
                ? .always : .createOnly(existsError: { SWCredError(.storeExists, "a store already exists at \(existsPath)") }),
            label: "keychain", options: options
        )
        let store = KeychainStore(
            path: resolved, storeID: storeID, options: options,
            state: OpenState(keySource: keySource, keys: keys, keyParameters: parameters, generation: 1)
        )
        if rollbackProtection { try store.rollbackState().record(1, key: keys.state, force: true, options: options) }
        return store
    }

    // MARK: Open

    /// Opens an existing store: resolves its real path, reads and verifies the whole file in the
    /// order of spec/store.md §4.6, and checks the rollback mark.
    ///
    /// - Throws: `storeNotFound`, `insecurePermissions`, `limitExceeded`, `notAStore`,
    ///   `unsupportedFormat`, `corruptHeader`, `parametersOutOfBounds`, `corruptPayload`,
    ///   `wrongKey`, `invalidKeyFile`, `rollbackDetected`, `resourceExhausted`, `ioFailure`.
    public static func open(
        at path: String,
        keySource: KeySource,
        options: StoreOptions = StoreOptions()
    ) throws(SWCredError) -> KeychainStore {
        try openAndRead(at: path, keySource: keySource, options: options).store
    }

    /// Opens a store to write to it: resolves its real path and runs the header steps of the read
    /// order (spec/store.md §4.6 steps 1–7: size, magic, version, checksum, ids, caps, exact
    /// length, key source, key derivation, header MAC), without decrypting the payload.
    ///
    /// Every write (``transaction(expectedGeneration:_:)``, ``beginTransaction(expectedGeneration:)``)
    /// reads and verifies the whole file again under the lock, rollback mark and AEAD included, so
    /// a one-shot writer (`swcred add`) that opened with ``open(at:keySource:options:)`` would
    /// decrypt and decode the whole store twice. Reading through an instance opened this way
    /// (``snapshot(selection:)``) verifies everything as usual.
    /// - Throws: as ``open(at:keySource:options:)``, except the payload and rollback errors,
    ///   which the first transaction reports.
    static func openForWriting(
        at path: String,
        keySource: KeySource,
        options: StoreOptions = StoreOptions()
    ) throws(SWCredError) -> KeychainStore {
        // The header only: the transaction reads and verifies the whole file under the lock.
        let (resolved, _, header, keys) = try readHeaderAndKeys(
            at: path, keySource: keySource, options: options, wholeFile: false)
        guard try header.macIsValid(macKey: keys.headerMAC) else {
            throw SWCredError(.wrongKey, "the key does not open this store (header MAC mismatch)")
        }
        return KeychainStore(
            path: resolved, storeID: header.storeID, options: options,
            state: OpenState(
                keySource: keySource, keys: keys, keyParameters: header.keyParameters, generation: header.generation
            )
        )
    }

    /// The steps every open shares (spec/store.md §4.6, steps 1–6): the real path, the folder's
    /// permissions, the file read under the size limit, the header parsed, the key source checked
    /// against it and the keys derived. Without `wholeFile`, only the header's bytes are read
    /// (and returned).
    private static func readHeaderAndKeys(
        at path: String, keySource: KeySource, options: StoreOptions, wholeFile: Bool = true
    ) throws(SWCredError) -> (resolved: String, bytes: [UInt8], header: StoreHeader, keys: StoreKeys) {
        guard let resolved = POSIX.realpath(path) else {
            if POSIX.lstat(path) == nil { throw SWCredError(.storeNotFound, "no store at \(path)") }
            throw POSIX.ioFailure("resolve store path", errno: errno, path: path)
        }
        try StorePaths.checkDirectory(POSIX.split(resolved).directory)
        let bytes: [UInt8]
        let header: StoreHeader
        if wholeFile {
            bytes = try readFile(resolved, limits: options.limits)
            header = try StoreHeader.parse(file: bytes, maxFileSize: options.limits.maxFileSize)
        } else {
            let (prefix, size) = try readHeader(resolved, limits: options.limits)
            bytes = prefix
            header = try StoreHeader.parse(prefix: prefix, fileSize: size, maxFileSize: options.limits.maxFileSize)
        }
        try checkKeySource(header, keySource)
        let keys = try StoreKeys.derive(source: keySource, parameters: header.keyParameters, options: options)
        return (resolved, bytes, header, keys)
    }

    /// Opens a store and returns the contents read while opening, so that a one-shot reader
    /// (`swcred list`, `show`) reads and decrypts the file once instead of twice.
    /// - Parameter selection: which items to build (the whole payload is verified either way).
    /// - Throws: as ``open(at:keySource:options:)``.
    package static func openAndRead(
        at path: String,
        keySource: KeySource,
        options: StoreOptions = StoreOptions(),
        selection: ReadSelection = .everything
    ) throws(SWCredError) -> (store: KeychainStore, snapshot: StoreSnapshot) {
        let (store, contents, header) = try openAndRead(at: path, keySource: keySource, options: options) {
            (plaintext, header) throws(SWCredError) in
            try PayloadCodec.decode(
                plaintext, payload: header.payloadRange, limits: options.limits, selection: selection)
        }
        let snapshot = StoreSnapshot(
            contents: contents, generation: header.generation, storeID: store.storeID, selection: selection
        )
        return (store, snapshot)
    }

    /// ``openAndRead(at:keySource:options:selection:)`` with the decoding left to `decode` (see
    /// ``read(decoding:)``).
    static func openAndRead<R>(
        at path: String, keySource: KeySource, options: StoreOptions,
        decoding decode: (_ plaintext: [UInt8], _ header: StoreHeader) throws(SWCredError) -> R
    ) throws(SWCredError) -> (store: KeychainStore, value: R, header: StoreHeader) {
        let (resolved, bytes, header, keys) = try readHeaderAndKeys(at: path, keySource: keySource, options: options)
        let store = KeychainStore(
            path: resolved, storeID: header.storeID, options: options,
            state: OpenState(
                keySource: keySource, keys: keys, keyParameters: header.keyParameters, generation: header.generation
            )
        )
        do throws(SWCredError) {
            let opened = try store.verify(bytes, header: header, keys: keys, decoding: decode)
            try store.recordMark(generation: header.generation, markState: opened.markState)
            return (store, opened.value, header)
        } catch where error.code == .rollbackDetected {
            // A writer may have saved and raised the mark between our read and the mark check.
            let (value, current) = try store.read(decoding: decode)
            return (store, value, current)
        }
    }

    /// Opens the store, or creates it when no file exists (the CLI's "created on first write").
    /// - Returns: the store and whether it was created.
    public static func openOrCreate(
        at path: String,
        keySource: KeySource,
        preset: KDFPreset = .moderate,
        options: StoreOptions = StoreOptions()
    ) throws(SWCredError) -> (store: KeychainStore, created: Bool) {
        do {
            return (try open(at: path, keySource: keySource, options: options), false)
        } catch where error.code == .storeNotFound && POSIX.lstat(path) == nil {
            do {
                return (try create(at: path, keySource: keySource, preset: preset, options: options), true)
            } catch where error.code == .storeExists {
                // Another process created it in between.
                return (try open(at: path, keySource: keySource, options: options), false)
            }
        }
    }

    // MARK: Key material

    static func checkKeySource(_ header: StoreHeader, _ source: KeySource) throws(SWCredError) {
        guard header.keySource == source.headerID else {
            let expected = header.keySource == .keyFile ? "a key file" : "a passphrase"
            throw SWCredError(.wrongKey, "the store is protected by \(expected), not \(source.kindName) (key source)")
        }
    }

    func rollbackState() throws(SWCredError) -> RollbackState {
        if let directory = options.stateDirectory { return RollbackState(directory: directory, storeID: storeID) }
        let directory = try StorePaths.stateDirectory(environment: StorePaths.processEnvironment)
        return RollbackState(directory: directory, storeID: storeID)
    }

    static func newKeyMaterial(
        _ source: KeySource,
        preset: KDFPreset,
        options: StoreOptions
    ) throws(SWCredError) -> (StoreHeader.KeyParameters, StoreKeys) {
        switch source {
        case .keyFile(let keyPath):
            if POSIX.lstat(keyPath) == nil { try KeyFile.create(at: keyPath) }
            let parameters = StoreHeader.KeyParameters(
                keySource: .keyFile, kdf: .none, opsLimit: 0, memLimit: 0,
                salt: Array(repeating: 0, count: StoreHeader.saltLength)
            )
            return (parameters, try StoreKeys.derive(source: source, parameters: parameters, options: options))
        case .passphrase:
            let argon = preset.parameters
            let parameters = StoreHeader.KeyParameters(
                keySource: .passphrase, kdf: .argon2id13, opsLimit: argon.opsLimit, memLimit: argon.memLimit,
                salt: try options.random(Argon2id.saltLength, .salt)
            )
            return (parameters, try StoreKeys.derive(source: source, parameters: parameters, options: options))
        }
    }

    /// Encodes and encrypts a whole file.
    private static func resolveForCreation(_ path: String) throws(SWCredError) -> String {
        if let existing = POSIX.realpath(path) {
            try StorePaths.checkDirectory(POSIX.split(existing).directory)
            return existing
        }
        let (directory, name) = POSIX.split(path)
        try StorePaths.makeDirectory(directory)
        guard let resolvedDirectory = POSIX.realpath(directory) else {
            throw POSIX.ioFailure("resolve store directory", errno: errno, path: directory)
        }
        try StorePaths.checkDirectory(resolvedDirectory)
        return resolvedDirectory == "/" ? "/" + name : resolvedDirectory + "/" + name
    }
}
