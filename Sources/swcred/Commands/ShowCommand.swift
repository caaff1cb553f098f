import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredStore

/// `swcred show DOMAIN ACCOUNT` (cli.md): prints one item's password.
///
/// Text: the password and a newline, nothing else on stdout (so `pw=$(swcred show …)` works).
/// JSON: `{"schema","item":{…attributes…},"password"}`. `DOMAIN ACCOUNT` names one item as
/// `list` prints it (``ItemName``, cli.md "Names of one item"): an ambiguous name is a usage
/// error (64) listing the candidates. "Passwords not saved" entries carry no password and are never
/// shown (store.md §2.2): `itemNotFound` (44). A password that is not valid UTF-8 is printed as
/// raw bytes in text mode and refused (`malformedInput`, 65) in JSON mode.
struct ShowCommand: StoreSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "show", abstract: "Print the password saved for a site and account.")

    @OptionGroup var storeOptions: GlobalStoreOptions

    @Argument(help: .site)
    var domain: String

    @Argument(help: "The account.")
    var account: String

    func execute(_ console: Console) async throws -> ExitStatus {
        let name = try ItemName(domain: domain, account: account)
        // Only the candidates are built (and their secrets copied); the whole payload is verified.
        guard let item = try storeOptions.session(console).passwordItem(named: name), let secret = item.secret else {
            throw SWCredError(.itemNotFound, "no password is saved for \(name.site.display) and this account")
        }
        try console.emit(ShowResult(item, password: try Self.text(of: item))) {
            console.outBytes(secret + [UInt8(ascii: "\n")])
        }
        return .success
    }

    /// The password as text, for JSON.
    /// - Throws: `malformedInput` when it is not valid UTF-8.
    private static func text(of item: InternetPasswordItem) throws(SWCredError) -> String {
        guard let password = item.password else {
            throw SWCredError(.malformedInput, "the saved password is not valid UTF-8; use --format text for its bytes")
        }
        return password
    }
}

/// `{"schema","item":{…every attribute but the secret…},"password"}`.
struct ShowResult: Encodable {
    let item: MergedDocument<ItemListing, ItemDetails>
    let password: String

    init(_ item: InternetPasswordItem, password: String) {
        self.item = MergedDocument(ItemListing(item), ItemDetails(item))
        self.password = password
    }
}
