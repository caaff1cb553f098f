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
    /// The lines of `items`, in one buffer.
    static func text(of items: ListedItems) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(items.count * 40)
        items.forEach { item in
            HostPort.append(host: item.server, port: Int(item.port), to: &text)
            text.append(UInt8(ascii: "\t"))
            if item.isNegative { text.append(contentsOf: notSaved.utf8) } else { text.append(contentsOf: item.account) }
            text.append(UInt8(ascii: "\n"))
        }
        return text
    }

    private static let notSaved = "(passwords not saved)"
}

struct ListResult: Encodable {
    let items: [ItemListing]
    /// The store's generation counter (store.md §5), so scripts and tests can see how many
    /// writes happened.
    let generation: UInt64
}
