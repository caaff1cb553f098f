extension HostName {
    /// Why a name is not a host name under a ``Syntax``.
    ///
    /// When a name has several problems, the first of these cases, in declaration order, is
    /// reported; each call site turns it into its own `SWCredError` code and message.
    public enum ParseError: Error, Sendable, Hashable {
        /// A byte outside ASCII: internationalised names must be given as A-labels (`xn--…`).
        case notASCII
        /// Nothing is left (after removing a trailing dot, where the syntax removes one).
        case empty
        /// Longer than ``HostName/maximumLength`` bytes.
        case tooLong
        /// A trailing dot, where the syntax keeps it (``Syntax/entitlement``).
        case trailingDot
        /// A leading dot.
        case leadingDot
        /// A character the syntax does not allow (the first one, as its byte).
        case character(UInt8)
        /// Two dots in a row.
        case emptyLabel
        /// A label longer than ``HostName/maximumLabelLength`` bytes.
        case labelTooLong
    }
}
