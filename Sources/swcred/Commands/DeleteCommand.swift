import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredKit
import SWCredStore

/// `swcred delete DOMAIN ACCOUNT` (cli.md), and `swcred delete DOMAIN --never-save`.
///
/// Removes every item that matches, as `SecItemDelete` does (store.md §3): DOMAIN without a port
/// matches any port. Nothing matching is `itemNotFound` (44). `--never-save` removes the
/// "Passwords not saved" entry of DOMAIN instead (store.md §2.2).
///
/// JSON: `{"schema","operation":"deleted","deleted":N,"items":[{"server","account","port"}]}`.
struct DeleteCommand: StoreSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "delete", abstract: "Delete the items saved for a site and account, or a site's \"Passwords not saved\" entry.")

    @OptionGroup var storeOptions: GlobalStoreOptions

    @Argument(help: .site)
    var domain: String

    @Argument(help: "The account. Not used with --never-save.")
    var account: String?

    @Flag(help: "Remove the site's \"Passwords not saved\" entry.")
    var neverSave = false

    func validate() throws {
        if neverSave && account != nil {
            throw ValidationError("--never-save takes only DOMAIN")
        }
        if !neverSave && account == nil {
            throw ValidationError("missing ACCOUNT")
        }
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        let site = try SiteName(domain)
        let query: ItemQuery
        if neverSave {
            query = ItemQuery(server: site.host, account: InternetPasswordItem.negativeEntryAccount, port: site.port,
                              synchronizable: .any, isNegative: true)
        } else {
            query = ItemQuery(server: site.host, account: account, port: site.port, synchronizable: .any)
        }
        let removed = try storeOptions.session(console).deleteItems(
            matching: query,
            notFound: neverSave
                ? "no \"Passwords not saved\" entry exists for \(site.display)"
                : "no item is saved for \(site.display) and this account")
        console.emit(DeleteResult(deleted: removed.count, items: removed.map(SWCItemDocument.init))) {
            console.out(neverSave
                ? "passwords may be saved again for \(site.display)"
                : "deleted \(removed.count) item\(removed.count == 1 ? "" : "s") for \(site.display)")
        }
        return .success
    }
}

struct DeleteResult: Encodable {
    let operation = "deleted"
    let deleted: Int
    let items: [SWCItemDocument]
}
