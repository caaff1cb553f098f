import FoundationEssentials
package import SWCredCore
import SWCredSodium

// Adding one item without building the store's other items (issue 13). The steps and guarantees
// are the write path's (spec/store.md §6): lock, read and verify the whole file, apply, seal, write
// durably, raise the rollback mark. Only the apply step differs: the new item's encoding is
// inserted into the verified payload, which is byte for byte what encoding the changed contents
// would give (items keep their insertion order; the encoding is canonical).
extension KeychainStore {
    /// What ``addIfAbsent(_:refusingServersNeverSaved:)`` did.
    public enum AddIfAbsentOutcome: Sendable, Equatable {
        /// The item was added and is durable.
        case added
        /// An item with the same key (a negative entry included) exists; nothing was written.
        case keyExists
        /// A "Passwords not saved" entry exists for the item's server; nothing was written.
        case serverNeverSaved
    }

    /// Adds `item` as one write transaction unless its key exists, without building the store's
    /// other items: the cost of `swcred add`, which at 10,000 items was mostly the decoding,
    /// comparing and re-encoding of every item.
    ///
    /// The item's dates are set to the clock's time; it is validated as
    /// ``StoreContents/add(_:at:limits:)`` validates it, and the item limit applies.
    ///
    /// - Parameters:
    ///   - item: the item to add.
    ///   - refusingServersNeverSaved: when `true`, a "Passwords not saved" entry for the item's
    ///     server (any account, any synchronizable value) stops the add with
    ///     ``AddIfAbsentOutcome/serverNeverSaved``.
    /// - Returns: whether the item was added, and if not, why.
    /// - Throws: `invalidParameter`, `limitExceeded`, `busy`, `conflict`, the read errors of
    ///   ``snapshot(selection:)``, `ioFailure` naming the step.
    package func addIfAbsent(
        _ item: InternetPasswordItem, refusingServersNeverSaved: Bool
    ) throws(SWCredError) -> AddIfAbsentOutcome {
        var item = item
        let stamp = options.clock.now().roundedToMilliseconds
        item.creationDate = stamp
        item.modificationDate = stamp
        if item.isNegative { item.secret = nil }
        // Validated before it is encoded: the encoder's field widths assume the limits hold, and
        // an over-long account or server is the caller's error (invalidParameter), never a trap.
        try ItemValidation.validate(item, limits: options.limits)
        // The item's encoding comes first, so that the file is read into a buffer with room for
        // it: the whole add then happens in that one buffer (decrypted, changed and encrypted
        // where it lies), instead of three more buffers of the store's size, each faulted in and
        // the plaintext ones wiped (at 100,000 items, 13 MB each).
        var entry = ByteWriter()
        PayloadCodec.encode(item, into: &entry)
        defer { Sodium.memzero(&entry.bytes) }

        let (lock, bytes, header, keys) = try lockAndRead(extraCapacity: entry.bytes.count)
        defer { lock.release() }
        var file = consume bytes
        // The room is claimed while the buffer holds ciphertext only: were it ever moved, no
        // plaintext would be left behind.
        file.append(contentsOf: repeatElement(0, count: entry.bytes.count))
        var holdsPlaintext = true
        defer { if holdsPlaintext { Sodium.memzero(&file) } }
        let opened = try authenticateInPlace(&file, header: header, keys: keys)
        let payload = header.payloadRange

        guard let scan = try PayloadCodec.scanForAppend(file, payload: payload, limits: options.limits, item: item) else {
            // Two items' key hashes collide (the hash is 64-bit and seeded per process, so this
            // is practically never): the full decode settles whether the keys are equal.
            var plaintext = Array(file[payload])
            defer { Sodium.memzero(&plaintext) }
            let contents = try PayloadCodec.decode(plaintext, limits: options.limits)
            let verified = Verified(
                header: header, contents: contents, overriddenMark: opened.overriddenMark, markState: opened.markState
            )
            return try addIfAbsent(item, to: verified, keys: keys, refusingServersNeverSaved: refusingServersNeverSaved)
        }
        let refusal: AddIfAbsentOutcome? =
            refusingServersNeverSaved && scan.negativeEntryExists ? .serverNeverSaved : scan.keyExists ? .keyExists : nil
        if let refusal {
            try recordMark(generation: header.generation, markState: opened.markState)
            return refusal
        }
        guard scan.itemCount < options.limits.maxItems else {
            throw SWCredError(
                .limitExceeded, "the store holds \(scan.itemCount) items; the limit is \(options.limits.maxItems)"
            )
        }
        try PayloadCodec.insert(entry.bytes, into: &file, payload: payload, scan: scan)
        let newPayload = payload.lowerBound..<(payload.upperBound + entry.bytes.count)
        let generation = try nextGeneration(after: header, overriddenMark: opened.overriddenMark)
        let newHeader = try Self.sealedHeader(
            payloadLength: newPayload.count, parameters: header.keyParameters, storeID: storeID,
            generation: generation, keys: keys, options: options
        )
        let headerBytes = newHeader.encoded()
        // Copied through a pointer: an array method could move the buffer, plaintext and all.
        file.withUnsafeMutableBytes { buffer in
            headerBytes.withUnsafeBytes { source in buffer.copyMemory(from: source) }
        }
        try XChaCha20Poly1305.sealInPlace(
            &file, plaintext: newPayload, associatedData: headerBytes, nonce: newHeader.nonce, key: keys.payload
        )
        holdsPlaintext = false
        try write(
            sealed: file, generation: generation, after: header, keys: keys,
            mark: MarkUpdate(protected: opened.markState != .off, previous: opened.markState))
        return .added
    }

    /// The same add on decoded contents (after a key-hash collision).
    private func addIfAbsent(
        _ item: InternetPasswordItem, to verified: Verified, keys: StoreKeys, refusingServersNeverSaved: Bool
    ) throws(SWCredError) -> AddIfAbsentOutcome {
        var contents = verified.contents
        contents.limits = options.limits
        var outcome = AddIfAbsentOutcome.added
        if refusingServersNeverSaved && contents.passwordsAreNeverSaved(for: item.server) {
            outcome = .serverNeverSaved
        } else if contents.item(forKey: item.key) != nil {
            outcome = .keyExists
        } else {
            try contents.add(item, at: item.creationDate)
        }
        try commit(contents, after: verified, keys: keys)
        return outcome
    }
}
