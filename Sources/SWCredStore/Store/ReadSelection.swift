/// Which items a read builds from the payload.
///
/// A read always decrypts, authenticates and checks the whole payload (spec/store.md §4.6): every
/// item's lengths, limits, UTF-8, codes, dates and uniqueness. A selection only decides which
/// items then become ``InternetPasswordItem`` values in the snapshot, so that a command that
/// looks up one credential among 100,000 does not build the other 99,999 (and their secrets).
///
/// A snapshot read with a selection other than ``everything`` holds a *part* of the store (see
/// ``StoreSnapshot/selection``); it is for reading. Changes go through
/// ``KeychainStore/transaction(expectedGeneration:_:)``, which always reads everything.
public struct ReadSelection: Sendable, Hashable {
    /// The items to build: those matching this query; `nil` builds every item.
    public var items: ItemQuery?
    /// Whether built items carry their secret; `false` leaves ``InternetPasswordItem/secret``
    /// `nil` (for listings, which never show passwords).
    public var secrets: Bool

    /// Creates a selection.
    public init(items: ItemQuery? = nil, secrets: Bool = true) {
        self.items = items
        self.secrets = secrets
    }

    /// Every item with its secret: the whole store.
    public static let everything = ReadSelection()

    /// Whether the snapshot holds the whole store.
    package var isEverything: Bool { items == nil && secrets }
}
