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
struct ListCommand: SWCredSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the saved items (never their passwords).",
        discussion: HelpExamples.discussion("list")
    )

    @OptionGroup var formatOptions: FormatOptions
    @OptionGroup var storeOptions: GlobalStoreOptions

    @Argument(help: "Only items of this site: HOST or HOST:PORT.")
    var domain: String?

    func execute(_ console: Console) async throws -> ExitStatus {
        let site = try domain.map { (text: String) throws(SWCredError) in try SiteArgument(text) }
        let query = ItemQuery(server: site?.host, port: site?.port, synchronizable: .any)
        // Only matching items are built, without their secrets (a listing never shows them).
        // Without a domain every item matches: the plain full decode, with no filter to apply.
        let selection = ReadSelection(items: site == nil ? nil : query, secrets: false)
        let snapshot = try storeOptions.session(console).read(selection: selection)
        let items = site == nil ? snapshot.contents.items : snapshot.contents.items(matching: query)
        let generation = snapshot.generation
        switch console.format {
        case .json:
            console.emitJSON(ListResult(items: items.map(ListedItem.init), generation: generation))
        case .text:
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

/// One item as `list` and `show` print it: attributes only, never the secret.
struct ListedItem: Encodable {
    let server: String
    let account: String
    let port: UInt16
    let label: String
    let created: Date
    let modified: Date
    let negative: Bool

    init(_ item: InternetPasswordItem) {
        server = item.server
        account = item.account
        port = item.port
        label = item.label
        created = item.creationDate
        modified = item.modificationDate
        negative = item.isNegative
    }

    private enum Keys: String, CodingKey { case server, account, port, label, created, modified, negative }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(server, forKey: .server)
        try c.encode(account, forKey: .account)
        if port == 0 { try c.encodeNil(forKey: .port) } else { try c.encode(port, forKey: .port) }
        try c.encode(label, forKey: .label)
        try c.encode(created, forKey: .created)
        try c.encode(modified, forKey: .modified)
        try c.encode(negative, forKey: .negative)
    }
}

struct ListResult: Encodable {
    let items: [ListedItem]
    /// The store's generation counter (store.md §5), so scripts and tests can see how many
    /// writes happened.
    let generation: UInt64
}
