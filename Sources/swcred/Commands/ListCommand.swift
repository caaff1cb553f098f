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
        let query = ItemQuery(server: site?.host, port: site?.port, synchronizable: .any)
        // Only matching items are built, without their secrets (a listing never shows them).
        // Without a domain every item matches: the plain full decode, with no filter to apply.
        let selection = ReadSelection(items: site == nil ? nil : query, secrets: false)
        let snapshot = try storeOptions.session(console).read(selection: selection)
        let items = site == nil ? snapshot.contents.items : snapshot.contents.items(matching: query)
        let generation = snapshot.generation
        console.emit(ListResult(items: items.map(ItemListing.init), generation: generation)) {
            // One write for the whole listing, not one per line (10,000 lines were 10,000 writes).
            var text = ""
            text.reserveCapacity(items.count * 40)
            for item in items {
                text += item.server
                if item.port != 0 { text += ":\(item.port)" }
                text += item.isNegative ? "\t(passwords not saved)\n" : "\t\(item.account)\n"
            }
            if !text.isEmpty { console.out(text, newline: false) }
        }
        return .success
    }
}

struct ListResult: Encodable {
    let items: [ItemListing]
    /// The store's generation counter (store.md §5), so scripts and tests can see how many
    /// writes happened.
    let generation: UInt64
}
