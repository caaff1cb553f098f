import ArgumentParser
import FoundationEssentials
import SWCredAssociation
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredRetrieval
import SWCredStore

/// The options shared by `register` and `assert`: the store, the caller (an app, by the app
/// options, or a browser, by `--origin`), and the simulated user's answer.
struct PasskeyCallerOptions: ParsableArguments {
    @OptionGroup var store: GlobalStoreOptions
    @OptionGroup var app: AppOptions
    @OptionGroup var source: SourceOptions

    @Option(help: ArgumentHelp("Act as a browser page at this origin (https://host[:port], or http://localhost).", valueName: "origin"))
    var origin: String?

    @Option(help: ArgumentHelp("The simulated user's answer: allow (default) or cancel.", valueName: "answer"))
    var user: PasskeyUserOption = .allow

    func validate() throws {
        if origin != nil, app.isGiven {
            throw ValidationError("give either app options (--entitlements/--app-id) or --origin, not both")
        }
        if origin == nil, !app.isGiven {
            throw ValidationError("give the caller: --entitlements FILE (and --app-id) for an app, or --origin for a browser")
        }
        if origin != nil, source.selectedKind == .cdn {
            throw ValidationError(
                "--cdn applies to an app; a related origin's /.well-known/webauthn comes from --aasa-dir or --direct")
        }
    }
}

/// Reads the options document: a file, or `-` for stdin; at most the JSON reader's limit (+1 to detect more).
func readPasskeyOptions(_ path: String, storeOptions: GlobalStoreOptions) throws(SWCredError) -> [UInt8] {
    let limit = WebAuthnJSON.limits.maxBytes + 1
    if path == "-" {
        if storeOptions.passphraseStdin {
            throw SWCredError(.usage, "the options and the passphrase cannot both come from stdin")
        }
        do {
            return try FileBytes.read(descriptor: CommandContext.current.standardInput, upTo: limit)
        } catch {
            throw SWCredError(.fileNotFound, "cannot read the options from standard input")
        }
    }
    do {
        return try FileBytes.read(path: path, upTo: limit)
    } catch {
        throw SWCredError(.fileNotFound, "cannot read the options file \(path)")
    }
}

extension PasskeyCallerOptions {
    /// The flow of `register` and `assert`: reads the options document at `path` and parses it (as
    /// an app's or a browser's), runs `body` in one store transaction for the caller, prints the
    /// response, and returns the exit status, a WebAuthn error's included.
    func respond<Options: PasskeyOptionsDocument, Response: Encodable & Sendable>(
        to path: String, console: Console,
        _ body: @escaping @Sendable (Options, PasskeyCaller, inout StoreContents, Date) throws(SWCredError) -> Response
    ) async -> ExitStatus {
        do {
            let parsed = try Options(json: try readPasskeyOptions(path, storeOptions: store), asApp: origin == nil)
            let response = try await transact(rpID: parsed.rpID, console: console) {
                (who: PasskeyCaller, contents: inout StoreContents, now: Date) throws(SWCredError) -> Response in
                let response = try body(parsed, who, &contents, now)
                // Debug builds, for the T10/T11 tests: the decrypted store with its keys is in memory here.
                TestPausePoint.pauseIfRequested("passkey-in-transaction")
                return response
            }
            // The response alone (text), or `{"schema","credential":{…}}` (JSON).
            console.emit(PasskeyCredentialDocument(credential: response)) { console.out(Console.encodePlain(response)) }
            return .success
        } catch {
            return reportPasskeyError(error, console: console)
        }
    }

    /// Runs `body` in one store transaction for the caller: a browser at `--origin` (with the RP
    /// ID's `/.well-known/webauthn` from the source when the RP ID is not the origin's host or a
    /// registrable suffix of it: related origins), or the app, whose association records are
    /// refreshed from the source first (as `request` does).
    private func transact<R: Sendable>(
        rpID: String?, console: Console,
        _ body: @escaping @Sendable (PasskeyCaller, inout StoreContents, Date) throws(SWCredError) -> R
    ) async throws(SWCredError) -> R {
        if let origin {
            let parsed = try RelyingPartyID.Origin(parsing: origin)
            var caller = PasskeyCaller.browser(parsed)
            if let rpID, !RelyingPartyID.isValid(rpID, forHost: parsed.host) {
                caller = .relatedOrigin(parsed, try await relatedOriginsFile(rpID: rpID))
            }
            return try store.session(console).modify(createIfMissing: true) {
                [caller] (contents: inout StoreContents, now: Date) throws(SWCredError) -> R in
                try body(caller, &contents, now)
            }
        }
        return try await SWCAppSession.open(
            storeOptions: store, app: app, source: source, console: console, simulator: false
        ).transact(body)
    }
}

extension PasskeyCallerOptions {
    /// The RP ID's `/.well-known/webauthn` from `--aasa-dir` or `--direct` (ROR-F*), for the
    /// ceremony's related-origins check; a file that cannot be read is carried as such, and the
    /// ceremony refuses with the reason.
    func relatedOriginsFile(rpID: String) async throws(SWCredError) -> RelatedOriginsFile {
        let selection: AssociationSourceSelection?
        do {
            selection = try source.selection()
        } catch let error as SWCredError {
            throw error
        } catch {
            throw SWCredError(.usage, "\(error)")
        }
        let (location, reading) = await AssociationSources.relatedOrigins(rpID: rpID, selection: selection)
        let listPath = PublicSuffixList.path(environment: CommandContext.current.environment)
        if let body = reading.body {
            return RelatedOriginsFile(rpID: rpID, location: location, body: body, publicSuffixListPath: listPath)
        }
        return RelatedOriginsFile(
            rpID: rpID, location: location, failure: reading.failure ?? "not read", publicSuffixListPath: listPath)
    }
}

/// `passkey register` and `passkey assert`: the store, the caller and its source come with the
/// ``PasskeyCallerOptions``.
protocol PasskeyCallCommand: StoreSubcommand, SourceSelectingCommand {
    var caller: PasskeyCallerOptions { get }
}

extension PasskeyCallCommand {
    var storeOptions: GlobalStoreOptions { caller.store }
    var source: SourceOptions { caller.source }
}

/// The WebAuthn options documents that `register` and `assert` read.
protocol PasskeyOptionsDocument: Sendable {
    init(json: [UInt8], asApp: Bool) throws(SWCredError)
    /// The RP ID the options name (`rp.id` / `rpId`), if any.
    var rpID: String? { get }
}

extension PublicKeyCredentialCreationOptions: PasskeyOptionsDocument {}
extension PublicKeyCredentialRequestOptions: PasskeyOptionsDocument {}

/// `--user allow|cancel`.
enum PasskeyUserOption: String, ExpressibleByArgument, Sendable {
    case allow, cancel
}
