/// A property-list dictionary with its entries in document order.
///
/// Keys are distinct: ``PropertyListReader`` refuses a dictionary that repeats a key
/// (``PropertyListReader/Failure/Kind/duplicateKey(_:)``), because readers that disagree on
/// which of two values wins (first, last) let one file say two things, and entitlements and
/// signed-app plists must say one.
package struct PropertyListDictionary: Sendable, Hashable {
    /// One `<key>` and its value.
    package struct Entry: Sendable, Hashable {
        /// The key.
        package var key: String
        /// The value.
        package var value: PropertyListValue
        /// Creates an entry.
        package init(key: String, value: PropertyListValue) {
            self.key = key
            self.value = value
        }
    }

    /// Every entry in document order.
    package var entries: [Entry]

    /// Creates a dictionary from entries (the caller keeps keys distinct).
    package init(_ entries: [Entry] = []) { self.entries = entries }

    /// The value for `key`, if any.
    package subscript(key: String) -> PropertyListValue? {
        entries.first(where: { $0.key == key })?.value
    }

    /// The number of entries.
    package var count: Int { entries.count }

    /// The keys, in document order.
    package var keys: [String] { entries.map(\.key) }
}
