extension PropertyListReader {
    /// Why a property list was refused, and where (byte offset).
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The kind of problem, for callers and tests that tell them apart.
        package enum Kind: Sendable, Hashable {
            /// Not a well-formed plist: a bad tag, a missing end tag, bad base64, a bad number or
            /// date, a binary object that is not what its marker says, trailing data.
            case syntax
            /// Invalid UTF-8 in XML, invalid or lone-surrogate UTF-16 or non-ASCII bytes in a
            /// binary string, a control character or a character reference XML forbids.
            case encoding
            /// Something outside what this reader reads: an XML encoding other than UTF-8, a
            /// `bplist` version other than `00`, an element outside the plist DTD, a DTD
            /// internal subset, a processing instruction, a binary set or null, a number out of
            /// the 64-bit range.
            case unsupported
            /// A binary trailer, offset, length, count or object reference that points outside
            /// the file or its object table.
            case outOfBounds
            /// A binary object that contains itself (it is its own ancestor).
            case cycle
            /// The input is longer than ``Limits/maxBytes``.
            case inputTooLarge
            /// Nesting, the value count, a container's size or a string went over its limit.
            case limitExceeded
            /// A dictionary repeats this key.
            case duplicateKey(String)
        }

        /// The kind of problem.
        package var kind: Kind
        /// Byte offset in the input where the problem was found (for binary plists, the offset
        /// of the object or trailer field read).
        package var offset: Int
        /// What is wrong, in a few words (never quoting a value; a key is quoted, shortened).
        package var message: String

        /// Creates a failure.
        package init(kind: Kind, offset: Int, message: String) {
            self.kind = kind
            self.offset = offset
            self.message = message
        }

        /// `message (at byte N)`.
        package var description: String { "\(message) (at byte \(offset))" }
    }
}
