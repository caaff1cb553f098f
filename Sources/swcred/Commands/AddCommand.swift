import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredKit
import SWCredPasswords
import SWCredSodium
import SWCredStore

/// `swcred add DOMAIN ACCOUNT (--password-stdin | --password-file F) [-U]` (cli.md).
///
/// Two paths share this command:
/// - the **browser path** (no app options): the device owner saves a password, as in Safari.
///   It stores the item, or fails with `duplicateItem` (45) when it exists, unless `-U/--update`
///   replaces its password (as `security add-internet-password -U`). See ``addBrowserPath(_:)``.
/// - the **app path** (`--app-id` / `--entitlements`): `SecAddSharedWebCredential` with every
///   check of shared-web-credentials.md; added by the SWC API work (marker in ``execute(_:)``).
///
/// `--never-save` instead records Safari's "Passwords not saved" entry for DOMAIN (store.md §2.2);
/// `swcred delete DOMAIN --never-save` removes it.
///
/// **Decisions** (browser path):
/// - The item has the attributes Safari and the Shared Web Credentials layer write: server = the
///   lowercased host, protocol `htps`, authentication type `form`, label `host (account)`, comment
///   `default`, creator `swca`, access group `com.apple.cfnetwork`, synchronizable. So `request`
///   finds what `add` saved, and an app-path add of the same credential is a duplicate.
/// - A "Passwords not saved" entry for the host blocks the browser path too (45), as it blocks the
///   app path: the device owner said never to save passwords for that site.
/// - An empty password is refused (`invalidParameter`, 50): an empty stdin is far more often a
///   mistake than a real password.
/// - `-U` with the same password is `unchanged` and writes nothing.
/// - A store that does not exist yet is created with a fresh key file, said on stderr (cli.md).
struct AddCommand: StoreSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "add",
        abstract: "Save a password for a site (as Safari does), or record that passwords are never saved for it.",
        discussion: """
            The password is read from standard input (--password-stdin) or a file (--password-file); \
            never from the command line. DOMAIN is HOST or HOST:PORT.
            """)

    @OptionGroup var storeOptions: GlobalStoreOptions

    @Argument(help: .site)
    var domain: String

    @Argument(help: "The account (user name). Not used with --never-save.")
    var account: String?

    @Flag(help: "Read the password from standard input (one trailing newline is removed).")
    var passwordStdin = false

    @Option(help: ArgumentHelp("Read the password from a file (mode 0600).", valueName: "path"))
    var passwordFile: String?

    @Flag(name: [.customShort("U"), .long], help: "Update the password if the item exists.")
    var update = false

    @Flag(help: "Record Safari's \"Passwords not saved\" entry for DOMAIN instead of a password.")
    var neverSave = false

    // MARK: App path options (SecAddSharedWebCredential; behaviour in AddCommand+AppPath.swift)

    @OptionGroup var app: AppOptions
    @OptionGroup var source: SourceOptions

    @Option(name: .customLong("user"), help: ArgumentHelp(
        "App path: the simulated user's answer to the prompt: allow, not-now, cancel, or ask (on the terminal). "
            + "Default: ask on a terminal, allow otherwise (scripts never wait).",
        valueName: "answer"))
    var userOption: String?

    /// `--user`, or its default: the real prompt on a terminal (issue: terminal manners), `allow`
    /// without one (cli.md), so that a script never waits.
    var user: String { userOption ?? (Console.interactiveTerminal ? "ask" : "allow") }

    @Flag(help: "App path: delete the credential (the nil-password call).")
    var delete = false

    @Flag(help: "Generate the password: app path SecCreateSharedWebCredentialPassword's format, browser path Safari's strong format; or for --rules.")
    var generate = false

    @Option(help: ArgumentHelp("With --generate: the site's Password Rules.", valueName: "rules"))
    var rules: String?

    @Flag(help: "App path: simulator mode (no entitlement or site-approval checks, AutoFill treated as on).")
    var simulator = false

    func validate() throws {
        if app.isGiven {
            try validateAppPath()
            return
        }
        if delete || simulator || userOption != nil {
            throw ValidationError("--delete, --simulator and --user need the app: --app-id or --entitlements")
        }
        if generate && (passwordStdin || passwordFile != nil || neverSave) {
            throw ValidationError("--generate replaces --password-stdin/--password-file and takes no --never-save")
        }
        if rules != nil && !generate { throw ValidationError("--rules needs --generate") }
        if passwordStdin && passwordFile != nil {
            throw ValidationError("give one of --password-stdin and --password-file")
        }
        if neverSave {
            if passwordStdin || passwordFile != nil || update {
                throw ValidationError("--never-save takes no password and no --update")
            }
            if account != nil {
                throw ValidationError("--never-save takes only DOMAIN (the entry's account is \"Passwords not saved\")")
            }
        } else if account == nil {
            throw ValidationError("missing ACCOUNT")
        }
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        // App path (SecAddSharedWebCredential): AddCommand+AppPath.swift.
        if app.isGiven {
            return try await addAppPath(console)
        }
        if neverSave {
            return try await addNeverSaveEntry(console)
        }
        return try await addBrowserPath(console)
    }

    /// The password from `--password-stdin` or `--password-file` (else the terminal), never from
    /// the passphrase's stream.
    func readPassword(allowEmpty: Bool) throws(SWCredError) -> SecureBytes {
        let given: SecretSource? = passwordStdin ? .standardInput : passwordFile.map { SecretSource.file($0) }
        try storeOptions.checkDistinctStreams(passwordSource: given)
        let source = try SecretInput.resolve(given, what: "password")
        return try SecretInput.read(source, what: "password", allowEmpty: allowEmpty)
    }

    // MARK: Browser path

    /// The browser path: the device owner saves `ACCOUNT`'s password for `DOMAIN`.
    private func addBrowserPath(_ console: Console) async throws(SWCredError) -> ExitStatus {
        let site = try SiteName(domain)
        let account = self.account ?? ""
        let password: SecureBytes
        if generate {
            // --generate on the browser path: Safari's strong format, or the site's --rules.
            password = try SecureBytes(copying: Array(try PasswordGenerator.generate(style: .strong, rules: rules).password.utf8))
        } else {
            password = try readPassword(allowEmpty: false)
        }
        TestPausePoint.pauseIfRequested("after-password")
        var secret = password.withUnsafeBytes { [UInt8]($0) }
        defer { Sodium.memzero(&secret) }

        let item = InternetPasswordItem.websitePassword(
            server: site.host, account: account, port: site.port ?? 0, secret: secret)
        let operation = try storeOptions.session(console).saveWebsitePassword(item, update: update)
        switch operation {
        case .added, .updated, .unchanged: break
        case .keyExists:
            throw SWCredError(
                .duplicateItem, "an item for \(site.display) and this account already exists; use -U to update it")
        case .serverNeverSaved:
            throw SWCredError(.duplicateItem, "passwords are never saved for \(item.server) "
                + "(a \"Passwords not saved\" entry exists; remove it with swcred delete \(item.server) --never-save)")
        }
        console.emit(SWCAddDocument(operation: operation, item: item)) {
            console.out("\(operation.rawValue) \(site.display) \(account)")
        }
        return .success
    }

    // MARK: "Passwords not saved"

    /// Records Safari's negative entry for `DOMAIN` (store.md §2.2).
    private func addNeverSaveEntry(_ console: Console) async throws(SWCredError) -> ExitStatus {
        let site = try SiteName(domain)
        let entry = InternetPasswordItem.negativeEntry(server: site.host, port: site.port ?? 0)
        let operation: StoreContents.WebsitePasswordSave =
            try storeOptions.session(console).addPasswordsNotSavedEntry(server: entry.server, port: entry.port) == .added
            ? .added : .unchanged
        console.emit(SWCAddDocument(operation: operation, item: entry)) {
            console.out(operation == .added
                ? "passwords will not be saved for \(site.display)"
                : "passwords were already not saved for \(site.display)")
        }
        return .success
    }
}
