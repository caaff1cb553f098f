import FoundationEssentials
package import SWCredCore
import SWCredSodium
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// The read path of ``KeychainStore``: the lock-free snapshot, steps 6–10 of the read order
// (spec/store.md §4.6), the rollback mark, and step 1 (reading the file within its size limit).
extension KeychainStore {
    // MARK: Read

    /// Reads and verifies the current file without taking the lock.
    /// - Parameter selection: which items to build (the whole payload is verified either way).
    /// - Throws: as ``open(at:keySource:options:)``; `wrongKey` when the store was rekeyed since
    ///   this instance opened it.
    package func snapshot(selection: ReadSelection = .everything) throws(SWCredError) -> StoreSnapshot {
        let (contents, header) = try read { (plaintext, header) throws(SWCredError) in
            try PayloadCodec.decode(
                plaintext, payload: header.payloadRange, limits: options.limits, selection: selection)
        }
        return StoreSnapshot(contents: contents, generation: header.generation, storeID: storeID, selection: selection)
    }

    /// Reads and verifies the current file without taking the lock, and returns what `decode`
    /// makes of the plaintext (step 10; the buffer is wiped after `decode` returns) with the
    /// file's header.
    func read<R>(
        decoding decode: (_ plaintext: [UInt8], _ header: StoreHeader) throws(SWCredError) -> R
    ) throws(SWCredError) -> (value: R, header: StoreHeader) {
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
                let opened = try verify(bytes, header: header, keys: keys, decoding: decode)
                try recordMark(generation: header.generation, markState: opened.markState)
                return (opened.value, header)
            } catch where error.code == .rollbackDetected && attempt < 4 {
                guard let now = try AtomicFile.currentGeneration(of: path), now != header.generation else { throw error }
            }
        }
    }


    // MARK: Verification

    struct Verified {
        var header: StoreHeader
        var contents: StoreContents
        /// The mark when the rollback override let a lower generation through.
        var overriddenMark: UInt64?
        var markState: RollbackState.Mark
    }

    /// Steps 6–10 of the read order; `header` has passed steps 1–5. The payload is decrypted in
    /// `bytes`' own buffer (no second buffer of the store's size), which is wiped before return.
    func verify(
        _ bytes: consuming [UInt8], header: StoreHeader, keys: StoreKeys, selection: ReadSelection = .everything
    ) throws(SWCredError) -> Verified {
        let opened = try verify(bytes, header: header, keys: keys) { (plaintext, header) throws(SWCredError) in
            try PayloadCodec.decode(
                plaintext, payload: header.payloadRange, limits: options.limits, selection: selection)
        }
        return Verified(
            header: header, contents: opened.value, overriddenMark: opened.overriddenMark, markState: opened.markState
        )
    }

    /// Steps 6–10 with the decoding left to `decode`, which reads the plaintext at
    /// `header.payloadRange` of the buffer it is given; the buffer is wiped after it returns.
    func verify<R>(
        _ bytes: consuming [UInt8], header: StoreHeader, keys: StoreKeys,
        decoding decode: (_ plaintext: [UInt8], _ header: StoreHeader) throws(SWCredError) -> R
    ) throws(SWCredError) -> (value: R, overriddenMark: UInt64?, markState: RollbackState.Mark) {
        var file = bytes
        defer { Sodium.memzero(&file) }
        let opened = try authenticateInPlace(&file, header: header, keys: keys)
        // Step 10: decode.
        let value = try decode(file, header)
        return (value, opened.overriddenMark, opened.markState)
    }

    /// Steps 6–9 on a whole file's buffer, decrypting the payload where it lies: afterwards
    /// `file[header.payloadRange]` is the plaintext (which the caller wipes, also when this
    /// throws) and the tag's bytes follow it unchanged. No plaintext is written unless the tag
    /// verifies (the payload's bytes in the buffer are zeroed when it does not; the file is not
    /// touched).
    ///
    /// The rollback check (store.md §5) runs after the AEAD: whether the store asks for it is a
    /// flag of the authenticated payload, which only the key can set or clear. A store without it
    /// reads no state file (``RollbackState/Mark/off``).
    func authenticateInPlace(_ file: inout [UInt8], header: StoreHeader, keys: StoreKeys) throws(SWCredError)
        -> (overriddenMark: UInt64?, markState: RollbackState.Mark)
    {
        // Step 7: header MAC.
        guard try header.macIsValid(macKey: keys.headerMAC) else {
            throw SWCredError(.wrongKey, "the key does not open this store (header MAC mismatch)")
        }
        let headerBytes = Array(file[0..<StoreHeader.length])
        do throws(SWCredError) {
            try XChaCha20Poly1305.openInPlace(
                &file, ciphertext: header.payloadRange, associatedData: headerBytes, nonce: header.nonce,
                key: keys.payload
            )
        } catch {
            throw Self.payloadError(error)
        }
        guard PayloadCodec.rollbackProtection(in: file, payload: header.payloadRange) else { return (nil, .off) }
        return try checkRollback(header: header, keys: keys)
    }

    private static func payloadError(_ error: SWCredError) -> SWCredError {
        error.code == .authenticationFailed
            ? SWCredError(.corruptPayload, "the payload does not authenticate (AEAD tag mismatch)") : error
    }

    /// Step 8 (rollback) of the read order, for a store with rollback protection on.
    private func checkRollback(header: StoreHeader, keys: StoreKeys) throws(SWCredError)
        -> (overriddenMark: UInt64?, markState: RollbackState.Mark)
    {
        let mark = try rollbackState().read(key: keys.state)
        var overridden: UInt64?
        if case .valid(let seen) = mark, header.generation < seen {
            guard options.allowRollback else {
                throw SWCredError(
                    .rollbackDetected,
                    "the store is at generation \(header.generation) but generation \(seen) was already seen here "
                        + "(rollback protection is on); to accept this copy on purpose, save to it with the rollback "
                        + "override, or turn rollback protection off with the override"
                )
            }
            options.warningHandler(
                "accepting a rolled-back store (generation \(header.generation), already seen \(seen))"
            )
            overridden = seen
        }
        return (overridden, mark)
    }

    func recordMark(_ verified: Verified) throws(SWCredError) {
        try recordMark(generation: verified.header.generation, markState: verified.markState)
    }

    /// Raises the rollback mark to `generation`, a generation just read and verified, when the
    /// mark (as read before, `markState`) is lower, missing or unverifiable.
    func recordMark(generation: UInt64, markState: RollbackState.Mark) throws(SWCredError) {
        let keys = state.withLock { $0.keys }
        state.withLock { $0.generation = max($0.generation, generation) }
        switch markState {
        case .off:
            return
        case .missing:
            try rollbackState().record(generation, key: keys.state, force: false, options: options)
        case .unverifiable:
            options.warningHandler(
                "the rollback state entry does not verify (rekeyed elsewhere?); re-anchored at generation \(generation)"
            )
            try rollbackState().record(generation, key: keys.state, force: true, options: options)
        case .valid(let seen):
            if generation > seen {
                try rollbackState().record(generation, key: keys.state, force: false, options: options)
            }
        }
    }

    func currentKeys(for header: StoreHeader) throws(SWCredError) -> StoreKeys {
        let (parameters, keys, source) = state.withLock { ($0.keyParameters, $0.keys, $0.keySource) }
        try Self.checkKeySource(header, source)
        guard parameters == header.keyParameters else {
            throw SWCredError(.wrongKey, "the store was rekeyed since it was opened (key changed); reopen it")
        }
        return keys
    }

    /// Step 1 of the read order: `fstat` (regular file, size within the limit), then the whole file.
    static func readFile(_ path: String, limits: StoreLimits, extraCapacity: Int = 0) throws(SWCredError) -> [UInt8] {
        let (fd, size, limit) = try openRegularFile(path, limits: limits)
        defer { POSIX.closeQuietly(fd) }
        // One byte more than fstat said, to see a file that grew; the header check catches it.
        let bytes = try POSIX.read(fd, upTo: size + 1, extraCapacity: extraCapacity, step: "keychain: read")
        guard bytes.count <= limit else {
            throw SWCredError(.limitExceeded, "the store file grew beyond the limit of \(limit) bytes")
        }
        return bytes
    }

    /// Step 1 for an open that leaves the payload to a later read: the same checks, then only
    /// the header's bytes, with the size `fstat` gave.
    static func readHeader(_ path: String, limits: StoreLimits) throws(SWCredError) -> (prefix: [UInt8], size: Int) {
        let (fd, size, _) = try openRegularFile(path, limits: limits)
        defer { POSIX.closeQuietly(fd) }
        return (try POSIX.read(fd, upTo: min(size, StoreHeader.length), step: "keychain: read"), size)
    }

    /// Opens `path` for reading and checks that it is a regular file within the size limit.
    private static func openRegularFile(
        _ path: String, limits: StoreLimits
    ) throws(SWCredError) -> (fd: Int32, size: Int, limit: Int) {
        guard let fd = try POSIX.openIfExists(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, step: "keychain: open") else {
            throw SWCredError(.storeNotFound, "no store at \(path)")
        }
        do throws(SWCredError) {
            let info = try POSIX.fstat(fd, step: "keychain: stat")
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw SWCredError(.notAStore, "\(path) is not a regular file")
            }
            let limit = min(limits.maxFileSize, StoreLimits.fileSizeCeiling)
            guard let size = Int(exactly: info.st_size), size <= limit else {
                throw SWCredError(.limitExceeded, "the store file is \(info.st_size) bytes; the limit is \(limit)")
            }
            return (fd, size, limit)
        } catch {
            POSIX.closeQuietly(fd)
            throw error
        }
    }
}
