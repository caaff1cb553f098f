extension JSONReader {
    /// Why a document was refused, where (byte offset) and in which value (JSON path).
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The kind of problem, for callers that map some kinds to their own message.
        package enum Kind: Sendable, Hashable {
            /// Not JSON: a bad token, a missing `,` `:` `}` `]`, a bad escape or number, trailing data.
            case syntax
            /// Invalid UTF-8, a lone surrogate, or a control character in a string.
            case encoding
            /// The input is longer than ``Limits/maxBytes``.
            case inputTooLarge
            /// Nesting, a string or a member count went over its limit.
            case limitExceeded
            /// The key appeared twice in one object, under ``DuplicateKeys/refuse``.
            case duplicateKey(String)
        }

        /// The kind of problem.
        package var kind: Kind
        /// Byte offset in the input where the problem was found.
        package var offset: Int
        /// What is wrong, in a few words (never quoting a value, which may be a secret).
        package var message: String
        /// The path of the value being read, outermost first (`[]` for the top level).
        package var components: [JSONPath.Component] = []

        /// The JSON path of the value being read (`applinks.details[0]`; `""` at the top level).
        package var path: String { JSONPath.render(components) }

        /// The path of the object or array holding the problem: ``path`` without its last step
        /// (for a refused duplicate key, the object that repeats it).
        package var containerPath: String { JSONPath.render(components.dropLast()) }

        /// `message (at byte N)`.
        package var description: String { "\(message) (at byte \(offset))" }
    }
}
