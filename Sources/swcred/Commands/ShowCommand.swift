import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredStore

/// `swcred show DOMAIN ACCOUNT` (cli.md): prints one item's password.
///
/// Text: the password and a newline, nothing else on stdout (so `pw=$(swcred show …)` works).
/// JSON: `{"schema","item":{…attributes…},"password"}`. DOMAIN without a port matches any port;
/// when several items match, the first saved is shown, as `SecItemCopyMatching` with
/// `kSecMatchLimitOne` returns one. "Passwords not saved" entries carry no password and are never
/// shown (store.md §2.2): `itemNotFound` (44). A password that is not valid UTF-8 is printed as
/// raw bytes in text mode and refused (`malformedInput`, 65) in JSON mode.
struct ShowCommand: SWCredSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print the password saved for a site and account.",
        discussion: HelpExamples.discussion("show")
    )

    @OptionGroup var formatOptions: FormatOptions
    @OptionGroup var storeOptions: GlobalStoreOptions

    @Argument(help: "The site: HOST or HOST:PORT.")
    var domain: String

    @Argument(help: "The account.")
    var account: String

    func execute(_ console: Console) async throws -> ExitStatus {
        let site = try SiteArgument(domain)
        let query = ItemQuery(server: site.host, account: account, port: site.port, synchronizable: .any)
        // Only the matching item is built (and its secret copied); the whole payload is verified.
        let found = try storeOptions.session(console).read(selection: ReadSelection(items: query))
            .contents.passwordItems(matching: query).first
        guard let item = found, let secret = item.secret else {
            throw SWCredError(.itemNotFound, "no password is saved for \(site.display) and this account")
        }
        switch console.format {
        case .text:
            console.outBytes(secret + [UInt8(ascii: "\n")])
        case .json:
            guard let password = item.password else {
                throw SWCredError(.malformedInput, "the saved password is not valid UTF-8; use --format text for its bytes")
            }
            console.emitJSON(ShowResult(item: ShownItem(item), password: password))
        }
        return .success
    }
}

/// Every attribute of an item except the secret, for `show`.
struct ShownItem: Encodable {
    let listed: ListedItem
    let protocolCode: String
    let authenticationType: String
    let path: String
    let securityDomain: String
    let comment: String
    let creator: String
    let accessGroup: String
    let synchronizable: Bool

    init(_ item: InternetPasswordItem) {
        listed = ListedItem(item)
        protocolCode = item.protocolCode
        authenticationType = item.authenticationType
        path = item.path
        securityDomain = item.securityDomain
        comment = item.comment
        creator = item.creator
        accessGroup = item.accessGroup
        synchronizable = item.synchronizable
    }

    private enum Keys: String, CodingKey {
        case `protocol`, authenticationType, path, securityDomain, comment, creator, accessGroup, synchronizable
    }
    func encode(to encoder: any Encoder) throws {
        try listed.encode(to: encoder)
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(protocolCode, forKey: .protocol)
        try c.encode(authenticationType, forKey: .authenticationType)
        try c.encode(path, forKey: .path)
        try c.encode(securityDomain, forKey: .securityDomain)
        try c.encode(comment, forKey: .comment)
        try c.encode(creator, forKey: .creator)
        try c.encode(accessGroup, forKey: .accessGroup)
        try c.encode(synchronizable, forKey: .synchronizable)
    }
}

struct ShowResult: Encodable {
    let item: ShownItem
    let password: String
}
