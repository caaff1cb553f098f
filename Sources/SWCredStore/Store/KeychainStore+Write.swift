package import FoundationEssentials
package import SWCredCore
package import SWCredSodium
import Synchronization

// The write path of ``KeychainStore``: transactions, rekeying, and sealing a whole file
// (spec/store.md §6). Every write takes the lock and goes through ``AtomicFile``.
extension KeychainStore {
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
    /// - Throws: `busy`, `conflict`, `limitExceeded`, the read errors of ``snapshot(selection:)``,
    ///   `ioFailure` naming the step, or whatever `body` throws.
    @discardableResult
    package func transaction<R>(
        expectedGeneration: UInt64? = nil,
        _ body: (inout StoreContents, Date) throws -> R
    ) throws -> R {
        let open = try beginTransaction(expectedGeneration: expectedGeneration)
        let result = try body(&open.contents, open.date)
        try open.commit()
        return result
    }

    /// Starts a write transaction that stays open across several steps: the same steps as
    /// ``transaction(expectedGeneration:_:)`` up to running the change, which the caller then
    /// makes on ``StoreTransaction/contents`` (synchronously or not) before
    /// ``StoreTransaction/commit()``.
    ///
    /// This is the bulk-write API: many changes, one lock, one verified read, one durable write.
    /// `swcred batch` runs a group of request lines in one; an importer adds thousands of items in
    /// one. The lock is held until the transaction commits or is released, so keep it short.
    ///
    /// ```swift
    /// let open = try store.beginTransaction()
    /// for item in items { try open.contents.add(item, at: open.date) }
    /// try open.commit()   // durable here: fsync, rename, directory fsync, rollback mark
    /// ```
    ///
    /// - Throws: `busy`, `conflict`, the read errors of ``snapshot(selection:)``, `ioFailure`.
    package func beginTransaction(expectedGeneration: UInt64? = nil) throws(SWCredError) -> StoreTransaction {
        let (lock, bytes, header, keys) = try lockAndRead()
        do throws(SWCredError) {
            let verified = try verify(bytes, header: header, keys: keys)
            if let expectedGeneration, expectedGeneration != header.generation {
                throw SWCredError(
                    .conflict,
                    "the store is at generation \(header.generation), not \(expectedGeneration); reread and retry"
                )
            }
            return StoreTransaction(store: self, lock: lock, keys: keys, verified: verified, date: options.clock.now())
        } catch {
            lock.release()
            throw error
        }
    }

    /// Steps 1 and 2 of the write path up to verification: takes the lock, removes stray
    /// temporary files, reads the file and checks its header and keys (steps 1–6 of the read
    /// order). The caller verifies the rest and releases the lock; on error it is released here.
    /// - Parameter extraCapacity: room to reserve in the returned bytes' buffer beyond the file
    ///   (for a change made in place).
    func lockAndRead(extraCapacity: Int = 0) throws(SWCredError)
        -> (lock: FileLock, bytes: [UInt8], header: StoreHeader, keys: StoreKeys)
    {
        let lock = try FileLock.acquire(path: lockPath, timeout: options.lockTimeout, what: "the store", label: "keychain")
        do throws(SWCredError) {
            TestHooks.reach(.afterLock, options: options)
            let (directory, name) = POSIX.split(path)
            AtomicFile.removeStrayTemporaries(directory: directory, name: name)
            let bytes = try Self.readFile(path, limits: options.limits, extraCapacity: extraCapacity)
            let header = try StoreHeader.parse(file: bytes, maxFileSize: options.limits.maxFileSize)
            return (lock, bytes, header, try currentKeys(for: header))
        } catch {
            lock.release()
            throw error
        }
    }

    /// Seals and writes `contents` as the generation after `verified` (the lock is held).
    ///
    /// Unchanged contents are not written, except after an overridden rollback mark: a write with
    /// the override accepts the older copy (store.md §5), so it saves a generation above the mark.
    func commit(_ contents: StoreContents, after verified: Verified, keys: StoreKeys) throws(SWCredError) {
        guard contents != verified.contents || verified.overriddenMark != nil else {
            try recordMark(verified)
            return
        }
        try Self.withPayload(of: contents) { plaintext throws(SWCredError) in
            try write(
                plaintext: plaintext, after: verified.header, overriddenMark: verified.overriddenMark, keys: keys,
                mark: MarkUpdate(protected: contents.rollbackProtection, previous: verified.markState))
        }
    }

    /// How a save updates the rollback mark: not at all without rollback protection; raised to
    /// the new generation with it; re-anchored there when protection was just turned on.
    struct MarkUpdate {
        var protected: Bool
        var previous: RollbackState.Mark
    }

    /// Seals `plaintext` as the generation after `header` (and after an overridden rollback
    /// mark), writes it in place of that generation, and raises the rollback mark (the lock is
    /// held): steps 4–11 of the write path.
    func write(
        plaintext: [UInt8], after header: StoreHeader, overriddenMark: UInt64?, keys: StoreKeys, mark: MarkUpdate
    ) throws(SWCredError) {
        let newGeneration = try nextGeneration(after: header, overriddenMark: overriddenMark)
        let file = try Self.seal(
            plaintext: plaintext, parameters: header.keyParameters, storeID: storeID, generation: newGeneration,
            keys: keys, options: options
        )
        try write(sealed: file, generation: newGeneration, after: header, keys: keys, mark: mark)
    }

    /// Writes the sealed file of generation `generation` in place of the generation of `header`
    /// and raises the rollback mark of a protected store (the lock is held): steps 5–11 of the
    /// write path.
    func write(
        sealed file: [UInt8], generation: UInt64, after header: StoreHeader, keys: StoreKeys, mark: MarkUpdate
    ) throws(SWCredError) {
        try AtomicFile.write(file, to: path, replace: .ifGeneration(header.generation), label: "keychain", options: options)
        state.withLock { $0.generation = max($0.generation, generation) }
        guard mark.protected else { return }
        try rollbackState().record(generation, key: keys.state, force: mark.previous == .off, options: options)
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
    package func rekey(
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
        let newGeneration = try nextGeneration(after: verified.header, overriddenMark: verified.overriddenMark)
        let file = try Self.withPayload(of: verified.contents) { plaintext throws(SWCredError) in
            try Self.seal(
                plaintext: plaintext, parameters: parameters, storeID: storeID, generation: newGeneration,
                keys: newKeys, options: options)
        }
        try AtomicFile.write(file, to: path, replace: .ifGeneration(header.generation), label: "keychain", options: options)
        state.withLock {
            $0 = OpenState(keySource: newSource, keys: newKeys, keyParameters: parameters, generation: newGeneration)
        }
        if verified.contents.rollbackProtection {
            try rollbackState().record(newGeneration, key: newKeys.state, force: true, options: options)
        }
    }

    func nextGeneration(after header: StoreHeader, overriddenMark: UInt64?) throws(SWCredError) -> UInt64 {
        var base = header.generation
        if let overriddenMark { base = max(base, overriddenMark) }
        guard base < UInt64.max else { throw SWCredError(.limitExceeded, "the generation counter is exhausted") }
        return base + 1
    }

    /// Runs `body` with the encoded payload of `contents` (``PayloadCodec``), and wipes it after.
    static func withPayload<R>(
        of contents: StoreContents, _ body: ([UInt8]) throws(SWCredError) -> R
    ) throws(SWCredError) -> R {
        var plaintext = PayloadCodec.encode(contents)
        defer { Sodium.memzero(&plaintext) }
        return try body(plaintext)
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
        let header = try sealedHeader(
            payloadLength: plaintext.count, parameters: parameters, storeID: storeID, generation: generation, keys: keys,
            options: options
        )
        let headerBytes = header.encoded()
        return try XChaCha20Poly1305.seal(
            plaintext, associatedData: headerBytes, nonce: header.nonce, key: keys.payload, prefix: headerBytes
        )
    }

    /// The header of a file whose payload is `payloadLength` bytes, with a fresh nonce, its MAC
    /// and checksum; refuses a file over the size limit.
    static func sealedHeader(
        payloadLength: Int,
        parameters: StoreHeader.KeyParameters,
        storeID: [UInt8],
        generation: UInt64,
        keys: StoreKeys,
        options: StoreOptions
    ) throws(SWCredError) -> StoreHeader {
        let total = StoreHeader.length + payloadLength + StoreHeader.tagLength
        let limit = min(options.limits.maxFileSize, StoreLimits.fileSizeCeiling)
        guard total <= limit else {
            throw SWCredError(.limitExceeded, "the store would be \(total) bytes; the limit is \(limit)")
        }
        var header = StoreHeader(
            keySource: parameters.keySource, kdf: parameters.kdf, opsLimit: parameters.opsLimit,
            memLimit: parameters.memLimit, salt: parameters.salt,
            nonce: try options.random(XChaCha20Poly1305.nonceLength, .nonce), storeID: storeID,
            generation: generation, payloadLength: UInt64(payloadLength)
        )
        try header.seal(macKey: keys.headerMAC)
        return header
    }
}

/// A write transaction held open: the store's write lock, the verified contents it read, and
/// the change being made to them. See ``KeychainStore/beginTransaction(expectedGeneration:)``.
///
/// Nothing is written until ``commit()``; a transaction released without committing (``abandon()``,
/// or the last reference dropped) writes nothing and releases the lock. Not thread-safe: one
/// task makes the change and commits.
package final class StoreTransaction {
    /// The contents to change. They start as the verified contents of the file, with the store's
    /// limits.
    package var contents: StoreContents
    /// The clock's time when the transaction began (what ``KeychainStore/transaction(expectedGeneration:_:)``
    /// passes to its closure).
    package let date: Date
    /// The generation the transaction read.
    package var generation: UInt64 { verified.header.generation }
    /// Whether the transaction has committed or been abandoned.
    private(set) var isFinished = false

    private let store: KeychainStore
    private let lock: FileLock
    private let keys: StoreKeys
    private let verified: KeychainStore.Verified

    init(store: KeychainStore, lock: FileLock, keys: StoreKeys, verified: KeychainStore.Verified, date: Date) {
        self.store = store
        self.lock = lock
        self.keys = keys
        self.verified = verified
        self.date = date
        var contents = verified.contents
        contents.limits = store.options.limits
        self.contents = contents
    }

    deinit {
        if !isFinished { lock.release() }
    }

    /// Saves ``contents`` as a new generation if they changed (temporary file, `fsync`,
    /// compare-and-swap on the generation, rename, directory `fsync`, rollback mark), then releases
    /// the lock. When this returns, the change is durable. Whether it succeeds or throws, the
    /// transaction is finished.
    /// - Throws: `limitExceeded` (the file would exceed the size limit), `conflict`, `ioFailure`
    ///   naming the step; `invalidParameter` when the transaction has already finished.
    package func commit() throws(SWCredError) {
        guard !isFinished else { throw SWCredError(.invalidParameter, "the store transaction has already finished") }
        isFinished = true
        defer { lock.release() }
        try store.commit(contents, after: verified, keys: keys)
    }

    /// Releases the lock without writing anything.
    func abandon() {
        guard !isFinished else { return }
        isFinished = true
        lock.release()
    }
}
