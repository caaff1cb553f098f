/// The one strict JSON reader of swcred (RFC 8259), over bytes, under limits.
///
/// - One value, nothing after it but white space; no comments, no byte-order mark (callers that
///   accept one strip it first and say so), UTF-8 only, no lone surrogates.
/// - Never traps: every input gives a value or a ``Failure`` with the byte offset and the JSON
///   path of the problem. The size limit is checked before anything is read, and the depth limit
///   before each descent, so hostile input cannot exhaust the stack.
/// - Repeated object keys are refused (``DuplicateKeys/refuse``, the default) or kept and
///   reported with their paths (``DuplicateKeys/report``, for association files: lookup then
///   returns the last, AD-3.9).
///
/// ```swift
/// let document = try JSONReader(limits: .init(maxBytes: 65_536), duplicateKeys: .refuse).read(bytes)
/// document.value.objectValue?["challenge"]?.stringValue
/// ```
package struct JSONReader: Sendable {
    /// What to do with a key that appears twice in one object.
    package enum DuplicateKeys: Sendable, Hashable {
        /// Fail with ``Failure/Kind/duplicateKey(_:)`` at the second occurrence.
        case refuse
        /// Keep every member and list each repeat in ``Document/duplicateKeys``.
        case report
    }

    /// The limits applied while reading.
    package var limits: Limits
    /// The duplicate-key policy.
    package var duplicateKeys: DuplicateKeys

    /// Creates a reader.
    package init(limits: Limits = Limits(), duplicateKeys: DuplicateKeys = .refuse) {
        self.limits = limits
        self.duplicateKeys = duplicateKeys
    }

    /// Reads one JSON document from `bytes`.
    /// - Throws: ``Failure`` for invalid JSON or UTF-8, a limit exceeded, a refused duplicate key
    ///   or trailing data.
    package func read(_ bytes: [UInt8]) throws(Failure) -> Document {
        let result = bytes.withUnsafeBufferPointer { read(buffer: $0) }
        return try result.get()
    }

    /// Reads one JSON document from raw bytes (a slice of a larger buffer, guarded memory).
    /// The buffer is not retained.
    package func read(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> Document {
        try read(buffer: bytes.assumingMemoryBound(to: UInt8.self)).get()
    }

    private func read(buffer: UnsafeBufferPointer<UInt8>) -> Result<Document, Failure> {
        guard buffer.count <= limits.maxBytes else {
            return .failure(
                Failure(
                    kind: .inputTooLarge, offset: limits.maxBytes,
                    message: "the JSON is \(buffer.count) bytes; the limit is \(limits.maxBytes)"))
        }
        var parser = JSONParser(bytes: buffer, limits: limits, refuseDuplicates: duplicateKeys == .refuse)
        do throws(Failure) {
            let value = try parser.document()
            return .success(Document(value: value, duplicateKeys: parser.finishedDuplicates()))
        } catch {
            return .failure(error)
        }
    }
}
