import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredStore

/// `swcred list [DOMAIN]` (cli.md): the store's items, never their passwords.
///
/// Every item is listed, synchronizable or not, "Passwords not saved" entries included (marked
/// `"negative": true` in JSON, `(passwords not saved)` in text). DOMAIN (`HOST` or `HOST:PORT`)
/// limits the list to that server (and port). Reading takes no lock (store.md §6).
///
/// JSON: `{"schema","generation","items":[{"server","account","port","label","created","modified","negative"}]}`;
/// `port` is null when unspecified (0). Text: one line per item, `server[:port] TAB account`.
struct ListCommand: StoreSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "list", abstract: "List the saved items (never their passwords).")

    @OptionGroup var storeOptions: GlobalStoreOptions

    @Argument(help: "Only items of this site: HOST or HOST:PORT.")
    var domain: String?

    func execute(_ console: Console) async throws -> ExitStatus {
        let site = try domain.map { (text: String) throws(SWCredError) in try SiteName(text) }
        guard console.format == .json else {
            // Text straight from the decrypted payload: no item values, no per-line strings, one
            // write (at 10,000 items, building and freeing the items and the lines was half of
            // `swcred list`; see Documentation/start-up.md).
            var text: [UInt8] = []
            try storeOptions.session(console).list(site: site) { text = ListingText.text(of: $0) }
            if !text.isEmpty { console.outBytes(text) }
            return .success
        }
        let query = ItemQuery(server: site?.host, port: site?.port, synchronizable: .any)
        // Only matching items are built, without their secrets (a listing never shows them).
        // Without a domain every item matches: the plain full decode, with no filter to apply.
        let selection = ReadSelection(items: site == nil ? nil : query, secrets: false)
        let snapshot = try storeOptions.session(console).read(selection: selection)
        let items = site == nil ? snapshot.contents.items : snapshot.contents.items(matching: query)
        console.emitJSON(ListResult(items: items.map(ItemListing.init), generation: snapshot.generation))
        return .success
    }
}

/// The text of `swcred list`: one line per item, `server[:port] TAB account`, or
/// `server[:port] TAB (passwords not saved)` for a "Passwords not saved" entry.
enum ListingText {
    /// The lines of `items`, in a buffer of exactly their size.
    static func text(of items: ListedItems) -> [UInt8] {
        var count = 0
        items.forEach { item in
            count += item.server.count + 2
            if item.port != 0 { count += 1 + decimalDigits(item.port) }
            count += item.isNegative ? notSaved.utf8.count : item.account.count
        }
        var text: [UInt8] = []
        text.reserveCapacity(count)
        items.forEach { append($0, to: &text) }
        return text
    }

    private static let notSaved = "(passwords not saved)"

    /// How many digits `value` has in decimal.
    static func decimalDigits(_ value: UInt16) -> Int {
        value >= 10_000 ? 5 : value >= 1_000 ? 4 : value >= 100 ? 3 : value >= 10 ? 2 : 1
    }

    /// Appends `item`'s line to `text`.
    static func append(_ item: ListedItem, to text: inout [UInt8]) {
        text.append(contentsOf: item.server)
        if item.port != 0 {
            text.append(UInt8(ascii: ":"))
            appendDecimal(item.port, to: &text)
        }
        text.append(UInt8(ascii: "\t"))
        if item.isNegative { text.append(contentsOf: notSaved.utf8) } else { text.append(contentsOf: item.account) }
        text.append(UInt8(ascii: "\n"))
    }

    /// `value` in decimal ASCII digits, as `"\(value)"` writes it.
    static func appendDecimal(_ value: UInt16, to text: inout [UInt8]) {
        var rest = Int(value)
        var divisor = 10_000
        while divisor > 1, divisor > rest { divisor /= 10 }
        while divisor > 0 {
            text.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}

struct ListResult: Encodable {
    let items: [ItemListing]
    /// The store's generation counter (store.md §5), so scripts and tests can see how many
    /// writes happened.
    let generation: UInt64
}
