public import Foundation
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
    public let generation: UInt64
    /// The store id (16 bytes, never changes).
    public let storeID: [UInt8]
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
/// - ``snapshot()`` reads without a lock (a rename replaces the file, so a reader sees the whole
///   old or the whole new file).
/// - ``rekey(to:preset:allowWeakerParameters:)`` moves the store to another key source.
///
/// Every call is synchronous and may block (Argon2id, lock waits, `fsync`). Call it from a thread
/// of your own (or a `DispatchQueue`), not from Swift's cooperative pool.
///
/// Each call opens its own lock descriptor, so several instances for one file, in one process
/// or many, exclude one another through `flock`.
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
    public let storeID: [UInt8]
    /// The options the store was opened with.
    public let options: StoreOptions

    private struct OpenState: Sendable {
        var keySource: KeySource
        var keys: StoreKeys
        var keyParameters: StoreHeader.KeyParameters
        var generation: UInt64
    }

    private let state: Mutex<OpenState>

    private init(path: String, storeID: [UInt8], options: StoreOptions, state: OpenState) {
        self.path = path
        self.storeID = storeID
        self.options = options
        self.state = Mutex(state)
    }

    /// The lock file's path (`<resolved path>.lock`).
    public var lockPath: String { StorePaths.lockPath(forStore: path) }

    /// The highest generation this instance has read or written.
    public var generation: UInt64 { state.withLock { $0.generation } }

    /// The Argon2id parameters of a passphrase store, `nil` for a key-file store.
    public var kdfParameters: Argon2idParameters? {
        state.withLock { $0.keyParameters.kdf == .argon2id13 ? $0.keyParameters.argon2 : nil }
    }

    /// Whether the store uses a key file (`true`) or a passphrase (`false`).
    public var usesKeyFile: Bool { state.withLock { $0.keyParameters.keySource == .keyFile } }

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
    ///   - Warning: `replaceExisting` destroys the existing store's contents.
    /// - Returns: the open store.
    /// - Throws: `storeExists` (a store exists and `replaceExisting` is false), `invalidParameter`
    ///   (passphrase length, test preset in release), `invalidKeyFile`, `insecurePermissions`,
    ///   `resourceExhausted`, `busy`, `limitExceeded`, `ioFailure`.
    public static func create(
        at path: String,
        keySource: KeySource,
        preset: KDFPreset = .moderate,
        options: StoreOptions = StoreOptions(),
        replaceExisting: Bool = false
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
        let contents = StoreContents(creationDate: options.clock.now())
        let file = try seal(
            contents, parameters: parameters, storeID: storeID, generation: 1, keys: keys, options: options
        )
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
        try store.rollbackState().record(1, key: keys.state, force: true, options: options)
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

    /// Opens a store and returns the contents read while opening, so that a one-shot reader
    /// (`swcred list`, `show`) reads and decrypts the file once instead of twice.
    /// - Throws: as ``open(at:keySource:options:)``.
    public static func openAndRead(
        at path: String,
        keySource: KeySource,
        options: StoreOptions = StoreOptions()
    ) throws(SWCredError) -> (store: KeychainStore, snapshot: StoreSnapshot) {
        guard let resolved = POSIX.realpath(path) else {
            if POSIX.lstat(path) == nil { throw SWCredError(.storeNotFound, "no store at \(path)") }
            throw POSIX.ioFailure("resolve store path", errno: errno, path: path)
        }
        try StorePaths.checkDirectory(POSIX.split(resolved).directory)
        let bytes = try readFile(resolved, limits: options.limits)
        let header = try StoreHeader.parse(file: bytes, maxFileSize: options.limits.maxFileSize)
        try checkKeySource(header, keySource)
        let keys = try StoreKeys.derive(source: keySource, parameters: header.keyParameters, options: options)
        let store = KeychainStore(
            path: resolved, storeID: header.storeID, options: options,
            state: OpenState(
                keySource: keySource, keys: keys, keyParameters: header.keyParameters, generation: header.generation
            )
        )
        do throws(SWCredError) {
            let verified = try store.verify(bytes, header: header, keys: keys)
            try store.recordMark(verified)
            return (store, StoreSnapshot(contents: verified.contents, generation: header.generation, storeID: header.storeID))
        } catch where error.code == .rollbackDetected {
            // A writer may have saved and raised the mark between our read and the mark check.
            return (store, try store.snapshot())
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

    // MARK: Read

    /// Reads and verifies the current file without taking the lock.
    /// - Throws: as ``open(at:keySource:options:)``; `wrongKey` when the store was rekeyed since
    ///   this instance opened it.
    public func snapshot() throws(SWCredError) -> StoreSnapshot {
        // Readers take no lock, so a writer can save and raise the rollback mark between our read
        // of the file and our read of the mark. A genuine rollback stays below the mark on a
        // re-read; a race does not. Re-read a few times before reporting it.
        var attempt = 0
        while true {
            attempt += 1
            let bytes = try Self.readFile(path, limits: options.limits)
            let header = try StoreHeader.parse(file: bytes, maxFileSize: options.limits.maxFileSize)
            let keys = try currentKeys(for: header)
            do throws(SWCredError) {
                let verified = try verify(bytes, header: header, keys: keys)
                try recordMark(verified)
                return StoreSnapshot(contents: verified.contents, generation: header.generation, storeID: storeID)
            } catch where error.code == .rollbackDetected && attempt < 4 {
                guard let now = try AtomicFile.currentGeneration(of: path), now != header.generation else { throw error }
            }
        }
    }

    // MARK: Write

    /// Runs `body` on the current contents under the write lock and saves the result as a new
    /// generation if it differs (spec/store.md §6).
    ///
    /// Steps: take the lock (waiting up to ``StoreOptions/lockTimeout``), remove stray temporary
    /// files, read and verify the file, check `expectedGeneration`, run `body` with the contents
    /// and the clock's time, and if the contents changed: seal with a new nonce, write a
    /// temporary file, `fsync`, compare-and-swap on the generation, rename, `fsync` the
    /// directory, raise the rollback mark, release the lock. If `body` throws, nothing is written
    /// and its error is rethrown unchanged.
    ///
    /// - Parameters:
    ///   - expectedGeneration: when given, fail with `conflict` unless the file is still at this
    ///     generation (for changes prepared against an earlier snapshot).
    ///   - body: the change; it receives the contents and the current time.
    /// - Returns: what `body` returns.
    /// - Throws: `busy`, `conflict`, `limitExceeded`, the read errors of ``snapshot()``,
    ///   `ioFailure` naming the step, or whatever `body` throws.
    @discardableResult
    public func transaction<R>(
        expectedGeneration: UInt64? = nil,
        _ body: (inout StoreContents, Date) throws -> R
    ) throws -> R {
        let lock = try FileLock.acquire(path: lockPath, timeout: options.lockTimeout, what: "the store", label: "keychain")
        defer { lock.release() }
        TestHooks.reach(.afterLock, options: options)
        let (directory, name) = POSIX.split(path)
        AtomicFile.removeStrayTemporaries(directory: directory, name: name)
        let bytes = try Self.readFile(path, limits: options.limits)
        let header = try StoreHeader.parse(file: bytes, maxFileSize: options.limits.maxFileSize)
        let keys = try currentKeys(for: header)
        let verified = try verify(bytes, header: header, keys: keys)
        if let expectedGeneration, expectedGeneration != header.generation {
            throw SWCredError(
                .conflict,
                "the store is at generation \(header.generation), not \(expectedGeneration); reread and retry"
            )
        }
        var contents = verified.contents
        contents.limits = options.limits
        let result = try body(&contents, options.clock.now())
        guard contents != verified.contents else {
            try recordMark(verified)
            return result
        }
        let newGeneration = try nextGeneration(after: verified)
        let file = try Self.seal(
            contents, parameters: header.keyParameters, storeID: storeID, generation: newGeneration, keys: keys,
            options: options
        )
        try AtomicFile.write(file, to: path, replace: .ifGeneration(header.generation), label: "keychain", options: options)
        state.withLock { $0.generation = max($0.generation, newGeneration) }
        try rollbackState().record(newGeneration, key: keys.state, force: false, options: options)
        return result
    }

    /// Rewrites the whole store under the lock with new key material: a new salt, new sub-keys,
    /// a new nonce, the same store id, generation + 1; the rollback entry is rewritten with the
    /// new sub-key 3. This instance uses the new keys afterwards.
    ///
    /// - Parameters:
    ///   - newSource: the new key file (created if missing) or passphrase.
    ///   - preset: the Argon2id preset for a passphrase.
    ///   - allowWeakerParameters: allow a preset below the current parameters (reported through
    ///     the warning handler); otherwise such a rekey fails with `invalidParameter`.
    ///   - Warning: lowering the KDF parameters makes offline guessing of the passphrase cheaper.
    /// - Throws: `invalidParameter`, `busy`, `conflict`, the read errors, `ioFailure`.
    public func rekey(
        to newSource: KeySource,
        preset: KDFPreset = .moderate,
        allowWeakerParameters: Bool = false
    ) throws(SWCredError) {
        #if !DEBUG
        if case .passphrase = newSource, preset == .test {
            throw SWCredError(.invalidParameter, "the test KDF preset is available to tests only")
        }
        #endif
        let old = state.withLock { $0.keyParameters }
        if case .passphrase = newSource, old.kdf == .argon2id13 {
            let new = preset.parameters
            if new.opsLimit < old.opsLimit || new.memLimit < old.memLimit {
                guard allowWeakerParameters else {
                    throw SWCredError(
                        .invalidParameter,
                        "the \(preset.rawValue) preset (\(new)) is below the store's parameters (\(old.argon2)); ask for it explicitly"
                    )
                }
                options.warningHandler("rekey lowers the KDF parameters from \(old.argon2) to \(new)")
            }
        }
        let (parameters, newKeys) = try Self.newKeyMaterial(newSource, preset: preset, options: options)
        let lock = try FileLock.acquire(path: lockPath, timeout: options.lockTimeout, what: "the store", label: "keychain")
        defer { lock.release() }
        let bytes = try Self.readFile(path, limits: options.limits)
        let header = try StoreHeader.parse(file: bytes, maxFileSize: options.limits.maxFileSize)
        let keys = try currentKeys(for: header)
        let verified = try verify(bytes, header: header, keys: keys)
        let newGeneration = try nextGeneration(after: verified)
        let file = try Self.seal(
            verified.contents, parameters: parameters, storeID: storeID, generation: newGeneration, keys: newKeys,
            options: options
        )
        try AtomicFile.write(file, to: path, replace: .ifGeneration(header.generation), label: "keychain", options: options)
        state.withLock {
            $0 = OpenState(keySource: newSource, keys: newKeys, keyParameters: parameters, generation: newGeneration)
        }
        try rollbackState().record(newGeneration, key: newKeys.state, force: true, options: options)
    }

    // MARK: Internals

    struct Verified {
        var header: StoreHeader
        var contents: StoreContents
        /// The mark when the rollback override let a lower generation through.
        var overriddenMark: UInt64?
        var markState: RollbackState.Mark
    }

    /// Steps 6–10 of the read order; `header` has passed steps 1–5.
    private func verify(_ bytes: [UInt8], header: StoreHeader, keys: StoreKeys) throws(SWCredError) -> Verified {
        // Step 7: header MAC.
        guard try header.macIsValid(macKey: keys.headerMAC) else {
            throw SWCredError(.wrongKey, "the key does not open this store (header MAC mismatch)")
        }
        // Step 8: rollback.
        let mark = try rollbackState().read(key: keys.state)
        var overridden: UInt64?
        if case .valid(let seen) = mark, header.generation < seen {
            guard options.allowRollback else {
                throw SWCredError(
                    .rollbackDetected,
                    "the store is at generation \(header.generation) but generation \(seen) was already seen here"
                )
            }
            options.warningHandler(
                "accepting a rolled-back store (generation \(header.generation), already seen \(seen))"
            )
            overridden = seen
        }
        // Step 9: AEAD over the payload, the whole header as associated data.
        let headerBytes = Array(bytes[0..<StoreHeader.length])
        var plaintext: [UInt8]
        do throws(SWCredError) {
            plaintext = try XChaCha20Poly1305.open(
                bytes[StoreHeader.length...], associatedData: headerBytes, nonce: header.nonce, key: keys.payload
            )
        } catch {
            if error.code == .authenticationFailed {
                throw SWCredError(.corruptPayload, "the payload does not authenticate (AEAD tag mismatch)")
            }
            throw error
        }
        defer { Sodium.memzero(&plaintext) }
        // Step 10: decode.
        let contents = try PayloadCodec.decode(plaintext, limits: options.limits)
        return Verified(header: header, contents: contents, overriddenMark: overridden, markState: mark)
    }

    private func recordMark(_ verified: Verified) throws(SWCredError) {
        let keys = state.withLock { $0.keys }
        state.withLock { $0.generation = max($0.generation, verified.header.generation) }
        switch verified.markState {
        case .missing:
            try rollbackState().record(verified.header.generation, key: keys.state, force: false, options: options)
        case .unverifiable:
            options.warningHandler(
                "the rollback state entry does not verify (rekeyed elsewhere?); re-anchored at generation \(verified.header.generation)"
            )
            try rollbackState().record(verified.header.generation, key: keys.state, force: true, options: options)
        case .valid(let seen):
            if verified.header.generation > seen {
                try rollbackState().record(verified.header.generation, key: keys.state, force: false, options: options)
            }
        }
    }

    private func nextGeneration(after verified: Verified) throws(SWCredError) -> UInt64 {
        var base = verified.header.generation
        if let mark = verified.overriddenMark { base = max(base, mark) }
        guard base < UInt64.max else { throw SWCredError(.limitExceeded, "the generation counter is exhausted") }
        return base + 1
    }

    /// The cached keys, if the header's key parameters are still the ones this instance opened.
    private func currentKeys(for header: StoreHeader) throws(SWCredError) -> StoreKeys {
        let (parameters, keys, source) = state.withLock { ($0.keyParameters, $0.keys, $0.keySource) }
        try Self.checkKeySource(header, source)
        guard parameters == header.keyParameters else {
            throw SWCredError(.wrongKey, "the store was rekeyed since it was opened (key changed); reopen it")
        }
        return keys
    }

    private static func checkKeySource(_ header: StoreHeader, _ source: KeySource) throws(SWCredError) {
        guard header.keySource == source.headerID else {
            let expected = header.keySource == .keyFile ? "a key file" : "a passphrase"
            throw SWCredError(.wrongKey, "the store is protected by \(expected), not \(source.kindName) (key source)")
        }
    }

    private func rollbackState() throws(SWCredError) -> RollbackState {
        if let directory = options.stateDirectory { return RollbackState(directory: directory, storeID: storeID) }
        let directory = try StorePaths.stateDirectory(environment: StorePaths.processEnvironment)
        return RollbackState(directory: directory, storeID: storeID)
    }

    private static func newKeyMaterial(
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
    static func seal(
        _ contents: StoreContents,
        parameters: StoreHeader.KeyParameters,
        storeID: [UInt8],
        generation: UInt64,
        keys: StoreKeys,
        options: StoreOptions
    ) throws(SWCredError) -> [UInt8] {
        var plaintext = PayloadCodec.encode(contents)
        defer { Sodium.memzero(&plaintext) }
        return try seal(
            plaintext: plaintext, parameters: parameters, storeID: storeID, generation: generation, keys: keys,
            options: options
        )
    }

    /// Encrypts an encoded payload into a whole file: header (MAC, checksum) and AEAD.
    static func seal(
        plaintext: [UInt8],
        parameters: StoreHeader.KeyParameters,
        storeID: [UInt8],
        generation: UInt64,
        keys: StoreKeys,
        options: StoreOptions
    ) throws(SWCredError) -> [UInt8] {
        let total = StoreHeader.length + plaintext.count + StoreHeader.tagLength
        let limit = min(options.limits.maxFileSize, StoreLimits.fileSizeCeiling)
        guard total <= limit else {
            throw SWCredError(.limitExceeded, "the store would be \(total) bytes; the limit is \(limit)")
        }
        var header = StoreHeader(
            keySource: parameters.keySource, kdf: parameters.kdf, opsLimit: parameters.opsLimit,
            memLimit: parameters.memLimit, salt: parameters.salt,
            nonce: try options.random(XChaCha20Poly1305.nonceLength, .nonce), storeID: storeID,
            generation: generation, payloadLength: UInt64(plaintext.count)
        )
        try header.seal(macKey: keys.headerMAC)
        let headerBytes = header.encoded()
        let ciphertext = try XChaCha20Poly1305.seal(
            plaintext, associatedData: headerBytes, nonce: header.nonce, key: keys.payload
        )
        return headerBytes + ciphertext
    }

    /// Step 1 of the read order: `fstat` (regular file, size within the limit), then the whole file.
    static func readFile(_ path: String, limits: StoreLimits) throws(SWCredError) -> [UInt8] {
        guard let fd = try POSIX.openIfExists(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, step: "keychain: open") else {
            throw SWCredError(.storeNotFound, "no store at \(path)")
        }
        defer { POSIX.closeQuietly(fd) }
        let info = try POSIX.fstat(fd, step: "keychain: stat")
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw SWCredError(.notAStore, "\(path) is not a regular file")
        }
        let limit = min(limits.maxFileSize, StoreLimits.fileSizeCeiling)
        guard let size = Int(exactly: info.st_size), size <= limit else {
            throw SWCredError(.limitExceeded, "the store file is \(info.st_size) bytes; the limit is \(limit)")
        }
        // One byte more than fstat said, to see a file that grew; the header check catches it.
        let bytes = try POSIX.read(fd, upTo: size + 1, step: "keychain: read")
        guard bytes.count <= limit else {
            throw SWCredError(.limitExceeded, "the store file grew beyond the limit of \(limit) bytes")
        }
        return bytes
    }

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
