/// A host name in canonical form: ASCII only, lowercased once, with no trailing dot.
///
/// Every place in swcred that reads a host name from outside (an entitlement, a URL, a
/// command-line argument, an imported file, an RP ID) parses it here, so that all of them agree on
/// what "the same host" is (STYLE.md, "Host names"). Internationalised names must arrive as
/// A-labels (`xn--…`): a byte outside ASCII is refused, never lowercased or mapped.
///
/// The rules common to every ``Syntax``:
/// - ASCII letters are lowercased, once, byte by byte (no Unicode case mapping).
/// - The name is not empty, and nothing but ASCII.
///
/// What differs between call sites is spelled out by ``Syntax``: the character set, whether one
/// trailing dot is removed or refused, and which length and label checks apply.
///
/// ```swift
/// let host = try HostName("Example.COM.", syntax: .dnsName)
/// // host.text == "example.com"
/// ```
public struct HostName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The canonical text: lowercase ASCII, no trailing dot.
    public let text: String
    /// The syntax the name was parsed with. Not part of the name's identity: names with the same
    /// ``text`` are equal. It lets a later user skip checks the parse already made (a retrieval
    /// takes an entitlement host as it is).
    public let syntax: Syntax

    /// The longest name, in bytes, of the syntaxes that limit length (RFC 1035 §2.3.4, less the root dot).
    @inlinable public static var maximumLength: Int { 253 }
    /// The longest label, in bytes, of the syntaxes that limit labels (RFC 1035 §2.3.4).
    @inlinable public static var maximumLabelLength: Int { 63 }

    public var description: String { text }

    /// Names are equal when their texts are.
    public static func == (lhs: HostName, rhs: HostName) -> Bool { lhs.text == rhs.text }

    public func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// Orders names by their bytes.
    public static func < (lhs: HostName, rhs: HostName) -> Bool {
        lhs.text.utf8.lexicographicallyPrecedes(rhs.text.utf8)
    }

    /// Parses a host name.
    ///
    /// - Parameters:
    ///   - text: The name as given (any case, possibly with a trailing dot).
    ///   - syntax: The rules of the call site.
    /// - Throws: The first ``ParseError`` in the order the cases are declared.
    public init(_ text: some StringProtocol, syntax: Syntax) throws(ParseError) {
        try self.init(utf8: text.utf8, syntax: syntax)
    }

    /// Parses a host name from its UTF-8 bytes, without building any string but the result.
    ///
    /// This is the entry point of the URL matcher's fast path (`LinkURLView`).
    ///
    /// - Parameters:
    ///   - bytes: The name's bytes.
    ///   - syntax: The rules of the call site.
    /// - Throws: The first ``ParseError`` in the order the cases are declared.
    @inlinable
    package init<Bytes: Collection<UInt8>>(utf8 bytes: Bytes, syntax: Syntax) throws(ParseError) {
        let shape = Self.measure(bytes, syntax: syntax)
        if let problem = shape.problem { throw problem }
        let kept = bytes.prefix(shape.length)
        self.syntax = syntax
        text =
            shape.hasUpper
            ? String(decoding: kept.map(Self.lowercased), as: UTF8.self)
            : String(decoding: kept, as: UTF8.self)
    }

    /// Checks a name's UTF-8 bytes without building anything: the problem ``init(utf8:syntax:)``
    /// would throw, or `nil` when it would succeed.
    ///
    /// The URL matcher's compiled path never needs the host's text, only whether the URL has a
    /// valid one; this is what it calls, on the bytes of the URL itself.
    ///
    /// - Parameters:
    ///   - bytes: The name's bytes.
    ///   - syntax: The rules of the call site.
    /// - Returns: The first problem, or `nil` for a valid name.
    @inlinable @inline(__always)
    package static func problem<Bytes: Collection<UInt8>>(utf8 bytes: Bytes, syntax: Syntax) -> ParseError? {
        measure(bytes, syntax: syntax).problem
    }

    /// ``problem(utf8:syntax:)-(Bytes,_)`` on memory the caller holds, such as the bytes of a URL.
    ///
    /// - Parameters:
    ///   - bytes: The name's bytes.
    ///   - syntax: The rules of the call site.
    /// - Returns: The first problem, or `nil` for a valid name.
    @inlinable @inline(__always)
    package static func problem(utf8 bytes: UnsafeBufferPointer<UInt8>, syntax: Syntax) -> ParseError? {
        measure(buffer: bytes, syntax: syntax).problem
    }

    /// Whether this name, however it was parsed, also meets the rules of `syntax` (an
    /// ``Syntax/entitlement`` name meets the ``Syntax/dnsName`` rules; a ``Syntax/urlHost`` name
    /// with `_` does not). A check of the canonical text; nothing is rewritten.
    ///
    /// - Parameter syntax: The rules to check.
    /// - Returns: Whether ``text`` is a name of `syntax`, unchanged by parsing.
    package func conforms(to syntax: Syntax) -> Bool {
        let shape = Self.measure(text.utf8, syntax: syntax)
        return shape.problem == nil && shape.length == text.utf8.count
    }

    /// `text` with its ASCII letters lowercased and nothing else changed, for text that is compared
    /// with host names but need not be one (a filter typed by a user, a key of a quirks file).
    ///
    /// - Parameter text: Any text.
    /// - Returns: The text, ASCII `A`–`Z` replaced by `a`–`z`; other characters as they were.
    package static func lowercasedASCII(_ text: some StringProtocol) -> String {
        guard text.utf8.contains(where: { lowercased($0) != $0 }) else { return String(text) }
        return String(decoding: text.utf8.map(lowercased), as: UTF8.self)
    }

    /// ``lowercasedASCII(_:)`` with one trailing dot removed, and nothing checked: the lookup key
    /// of a name that may not be a valid host (the Password Rules and shared-credentials quirks).
    ///
    /// - Parameter text: Any text.
    /// - Returns: The key; for a valid host, the same as ``text`` of the parsed name.
    package static func lookupKey(_ text: some StringProtocol) -> String {
        let key = lowercasedASCII(text)
        guard key.utf8.last == UInt8(ascii: ".") else { return key }
        return String(decoding: key.utf8.dropLast(), as: UTF8.self)
    }

    /// `byte` with `A`–`Z` mapped to `a`–`z`: the only case mapping of host names in swcred.
    @inlinable
    static func lowercased(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }

    /// What one pass over a name found.
    @usableFromInline
    struct Shape {
        /// The number of bytes kept (a removed trailing dot excluded).
        @usableFromInline var length: Int
        /// Whether any kept byte is an ASCII capital.
        @usableFromInline var hasUpper: Bool
        /// The first problem by rank, if any.
        @usableFromInline var problem: ParseError?

        @usableFromInline
        init(length: Int, hasUpper: Bool, problem: ParseError?) {
            self.length = length
            self.hasUpper = hasUpper
            self.problem = problem
        }
    }

    /// Checks `bytes` against `syntax` in one pass, on contiguous memory.
    @inlinable @inline(__always)
    static func measure<Bytes: Collection<UInt8>>(_ bytes: Bytes, syntax: Syntax) -> Shape {
        if let shape = bytes.withContiguousStorageIfAvailable({ measure(buffer: $0, syntax: syntax) }) {
            return shape
        }
        return Array(bytes).withUnsafeBufferPointer { measure(buffer: $0, syntax: syntax) }
    }

    /// Checks `buffer` against `syntax`: one pass over the characters (one table lookup a byte,
    /// the URL matcher's hot path), and a second over the labels for the syntaxes that check them.
    @inlinable @inline(__always)
    static func measure(buffer: UnsafeBufferPointer<UInt8>, syntax: Syntax) -> Shape {
        let count = buffer.count
        guard count > 0, let base = buffer.baseAddress else {
            return Shape(length: 0, hasUpper: false, problem: .empty)
        }
        let dot = UInt8(ascii: ".")
        let first = base[0]
        let last = base[count &- 1]
        let allowed = syntax.allowedBytes
        var hasUpper = false
        var nonASCII = false
        var badByte: UInt8?
        var i = 0
        while i < count {
            let byte = base[i]
            i &+= 1
            if lowercased(byte) != byte { hasUpper = true }
            // Bytes 0-63 in `low`, 64-127 in `high`, none above: one shift and test a byte.
            let word = byte < 64 ? allowed.low : byte < 128 ? allowed.high : 0
            if (word >> (byte & 63)) & 1 == 0 {
                if byte >= 0x80 {
                    nonASCII = true
                } else if badByte == nil {
                    badByte = byte
                }
            }
        }
        var emptyLabel = false
        var longLabel = false
        if syntax.checksLabels {
            var label = 0
            for byte in buffer {
                if byte == dot {
                    if label == 0 { emptyLabel = true }
                    if label > maximumLabelLength { longLabel = true }
                    label = 0
                } else {
                    label &+= 1
                }
            }
            if label > maximumLabelLength { longLabel = true }
        }
        // One trailing dot is removed, or (when kept) refused as an empty last label.
        let length = syntax.removesTrailingDot && last == dot ? count - 1 : count
        // The first problem in the order ParseError declares them.
        func firstProblem() -> ParseError? {
            if nonASCII { return .notASCII }
            if length == 0 { return .empty }
            if syntax.limitsLength, length > maximumLength { return .tooLong }
            if !syntax.checksLabels { return badByte.map(ParseError.character) }
            if last == dot, length == count { return .trailingDot }
            if first == dot { return .leadingDot }
            if let badByte { return .character(badByte) }
            if emptyLabel { return .emptyLabel }
            if syntax.limitsLabels, longLabel { return .labelTooLong }
            return nil
        }
        return Shape(length: length, hasUpper: hasUpper, problem: firstProblem())
    }
}
