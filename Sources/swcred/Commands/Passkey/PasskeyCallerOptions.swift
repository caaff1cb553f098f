import ArgumentParser
import FoundationEssentials
import SWCredAssociation
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredRetrieval
import SWCredStore

/// The options shared by `register` and `assert`: the store, the caller (an app, by the app
/// options, a browser, by `--origin`, or an Android app, by `--android-app`), and the simulated
/// user's answer.
struct PasskeyCallerOptions: ParsableArguments {
    @OptionGroup var store: GlobalStoreOptions
    @OptionGroup var app: AppOptions
    @OptionGroup var source: SourceOptions

    @Option(help: ArgumentHelp("Act as a browser page at this origin (https://host[:port], or http://localhost).", valueName: "origin"))
    var origin: String?

    @Option(
        name: .customLong("android-app"),
        help: ArgumentHelp(
            "Act as an Android app: package name and SHA-256 signing fingerprints, the signing one first; "
                + "the RP ID's assetlinks.json must list it (--aasa-dir DIR or --direct).",
            valueName: "pkg=fp[,fp…]"))
    var androidApp: String?

    @Option(help: ArgumentHelp("The simulated user's answer: allow (default) or cancel.", valueName: "answer"))
    var user: PasskeyUserOption = .allow

    func validate() throws {
        let callers = [app.isGiven, origin != nil, androidApp != nil].filter { $0 }.count
        if callers > 1 {
            throw ValidationError(
                "give one caller: app options (--entitlements/--app/--app-id), --origin or --android-app, not several")
        }
        if callers == 0 {
            throw ValidationError(
                "give the caller: --entitlements FILE (and --app-id) or --app PATH for an app, --origin for a browser, "
                    + "or --android-app PKG=FP for an Android app")
        }
        if androidApp != nil, source.selectedKind == nil {
            throw ValidationError(
                "--android-app needs the RP ID's assetlinks.json: give --aasa-dir DIR, or --direct to fetch it")
        }
        if androidApp != nil, source.cdn, source.aasaDir == nil {
            throw ValidationError("assetlinks.json has no CDN route: give --direct (or --aasa-dir DIR)")
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
            let parsed = try Options(json: try readPasskeyOptions(path, storeOptions: store), asApp: app.isGiven)
            let android = try await approvedAndroidApp(rpID: parsed.rpID)
            let response = try await transact(rpID: parsed.rpID, console: console, android: android) {
                (who: PasskeyCaller, contents: inout StoreContents, now: Date) throws(SWCredError) -> Response in
                let response = try body(parsed, who, &contents, now)
                // Debug builds, for the T10/T11 tests: the decrypted store with its keys is in memory here.
                TestPausePoint.pauseIfRequested("passkey-in-transaction")
                return response
            }
            // The response alone (text), or `{"schema","credential":{…}}` (JSON); an Android app's
            // origins (DAL-Q4) are `"origins"` in JSON and a note on stderr in text.
            let origins = android?.acceptedOrigins
            console.emit(PasskeyCredentialDocument(credential: response, origins: origins)) {
                console.out(Console.encodePlain(response))
                if let android { Self.noteOrigins(android, console: console) }
            }
            return .success
        } catch {
            return reportPasskeyError(error, console: console)
        }
    }

    /// Runs `body` in one store transaction for the caller: an Android app already approved by
    /// its RP ID's `assetlinks.json`, a browser at `--origin` (with the RP ID's
    /// `/.well-known/webauthn` from the source when the RP ID is not the origin's host or a
    /// registrable suffix of it: related origins), or the app, whose association records are
    /// refreshed from the source first (as `request` does).
    private func transact<R: Sendable>(
        rpID: String?, console: Console, android: AndroidPasskeyApp?,
        _ body: @escaping @Sendable (PasskeyCaller, inout StoreContents, Date) throws(SWCredError) -> R
    ) async throws(SWCredError) -> R {
        if let android {
            return try store.session(console).modify(createIfMissing: true) {
                (contents: inout StoreContents, now: Date) throws(SWCredError) -> R in
                try body(.androidApp(android), &contents, now)
            }
        }
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

    /// With `--android-app`: the app, once the RP ID host's `assetlinks.json` (from `--aasa-dir`,
    /// or fetched under DAL-F*) lists it for both relations (DAL-Q4); `nil` for other callers.
    func approvedAndroidApp(rpID: String?) async throws(SWCredError) -> AndroidPasskeyApp? {
        guard let androidApp else { return nil }
        let identity = try AndroidAppIdentity.parse(androidApp)
        guard let rpID else {
            throw PasskeyFailure.invalidOptions.error(
                "an Android app's request needs the RP ID (rp.id / rpId)", asApp: false)
        }
        do {
            let selection = try source.requiredSelection()
            return try await AssociationSources.withAssetLinks(selection) { source in
                guard let source else { return nil }
                return try await AndroidPasskeyApp.approve(identity, rpID: rpID, source: source)
            }
        } catch let error as SWCredError {
            throw error
        } catch {
            throw SWCredError(.internalError, "unexpected error reading assetlinks.json: \(error)")
        }
    }

    /// Text mode: the origins an RP server must accept, on stderr (stdout is the response alone).
    static func noteOrigins(_ android: AndroidPasskeyApp, console: Console) {
        console.err(
            "note: \(android.packageName)'s clientDataJSON.origin is \(android.origin); the RP server for "
                + "\(android.relyingPartyID) must accept these origins (DAL-Q4):")
        for origin in android.acceptedOrigins { console.err("  \(origin)") }
    }
}

/// `passkey register` and `passkey assert`: the store, the caller and its source come with the
/// ``PasskeyCallerOptions``.
protocol PasskeyCallCommand: StoreSubcommand, SourceSelectingCommand, AppSelectingCommand {
    var caller: PasskeyCallerOptions { get }
}

extension PasskeyCallCommand {
    var storeOptions: GlobalStoreOptions { caller.store }
    var source: SourceOptions { caller.source }
    var app: AppOptions { caller.app }
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
