/// swcred's own property-list reader: XML (plist 1.0) and binary (`bplist00`), over bytes,
/// under limits. No decoder the project does not own sees the bytes.
///
/// - Never traps: every input gives a value or a ``Failure`` with its kind and byte offset. The
///   size limit is checked before anything is read and the depth limit before each descent, so
///   hostile input cannot exhaust the stack.
/// - Binary: the trailer, every offset, length, count and object reference is bounds-checked
///   with overflow-safe arithmetic; an object that contains itself is refused (``Failure/Kind/cycle``);
///   an object referenced from several places is read once but counted each time against
///   ``Limits/maxValues``, so a small file cannot expand exponentially. UTF-16 strings are
///   validated (no lone surrogates); ASCII strings must be ASCII. Sets, null and fill objects,
///   which no plist type maps to, are refused.
/// - XML: UTF-8 only (a UTF-8 byte-order mark is skipped; another encoding is refused), the
///   plist 1.0 DTD's elements (`plist`, `dict`, `key`, `array`, `string`, `integer`, `real`,
///   `true`, `false`, `date`, `data`), the five predefined entities and numeric character
///   references, comments, CDATA, an `<?xml?>` declaration and a `<!DOCTYPE>` without an
///   internal subset. Attributes are read only on `<plist>`. Line ends are normalised to LF as
///   XML 1.0 §2.11 says. Anything else is refused by name.
/// - A dictionary that repeats a key is refused (``PropertyListDictionary``).
///
/// ```swift
/// let value = try PropertyListReader(limits: .init(maxBytes: 1 << 20, maxDepth: 32)).read(bytes)
/// value.dictionaryValue?["application-identifier"]?.stringValue
/// ```
package struct PropertyListReader: Sendable {
    /// The two formats read.
    package enum Format: Sendable, Hashable {
        /// `bplist00`.
        case binary
        /// XML, plist 1.0.
        case xml
    }

    /// The limits applied while reading.
    package var limits: Limits

    /// Creates a reader.
    package init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// The format `bytes` claim: binary when they start with `bplist` (any version; only `00` is
    /// read), XML otherwise.
    package static func format(of bytes: some Collection<UInt8>) -> Format {
        bytes.starts(with: Array("bplist".utf8)) ? .binary : .xml
    }

    /// Reads one property list from `bytes`, binary or XML by ``format(of:)``.
    /// - Throws: ``Failure`` for a malformed plist, a limit exceeded, a repeated key or
    ///   something this reader does not read.
    package func read(_ bytes: [UInt8]) throws(Failure) -> PropertyListValue {
        try bytes.withUnsafeBufferPointer { buffer in read(buffer: buffer) }.get()
    }

    /// Reads one property list from raw bytes (a slice of a larger buffer, guarded memory).
    /// The buffer is not retained.
    /// - Throws: ``Failure``, as for an array of bytes.
    package func read(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> PropertyListValue {
        try read(buffer: bytes.assumingMemoryBound(to: UInt8.self)).get()
    }

    private func read(buffer: UnsafeBufferPointer<UInt8>) -> Result<PropertyListValue, Failure> {
        guard buffer.count <= limits.maxBytes else {
            return .failure(
                Failure(
                    kind: .inputTooLarge, offset: limits.maxBytes,
                    message: "the property list is \(buffer.count) bytes; the limit is \(limits.maxBytes)"))
        }
        do throws(Failure) {
            switch Self.format(of: buffer) {
            case .binary:
                var parser = BinaryPropertyListParser(bytes: buffer, limits: limits)
                return .success(try parser.document())
            case .xml:
                var parser = XMLPropertyListParser(bytes: buffer, limits: limits)
                return .success(try parser.document())
            }
        } catch {
            return .failure(error)
        }
    }
}
