import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredKit
import SWCredStore

/// `swcred delete DOMAIN ACCOUNT` (cli.md), and `swcred delete DOMAIN --never-save`.
///
/// Removes the item `DOMAIN ACCOUNT` names as `list` prints it (``ItemName``, cli.md "Names of
/// one item"): a plain HOST is the portless item, or the only port's; an ambiguous name is a
/// usage error (64) listing the candidates. Nothing matching is `itemNotFound` (44). `--never-save` removes the
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
        let session = try storeOptions.session(console)
        let removed: [InternetPasswordItem]
        if neverSave {
            let query = ItemQuery(
                server: site.host, account: InternetPasswordItem.negativeEntryAccount, port: site.port,
                synchronizable: .any, isNegative: true)
            removed = try session.deleteItems(
                matching: query, notFound: "no \"Passwords not saved\" entry exists for \(site.display)")
        } else {
            removed = try session.deleteItems(
                named: try ItemName(domain: domain, account: account ?? ""),
                notFound: "no item is saved for \(site.display) and this account")
        }
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
