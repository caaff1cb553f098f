import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredKit
import SWCredPasskeys
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
            throw ValidationError("give either app options (--entitlements/--app/--app-id) or --origin, not both")
        }
        if origin == nil, !app.isGiven {
            throw ValidationError("give the caller: --entitlements FILE (and --app-id) or --app PATH for an app, or --origin for a browser")
        }
        if origin != nil, source.selectedKind != nil {
            throw ValidationError("association sources apply to an app; --origin takes none")
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
            let response = try await transact(console: console) {
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

    /// Runs `body` in one store transaction for the caller: a browser at `--origin`, or the app,
    /// whose association records are refreshed from the source first (as `request` does).
    private func transact<R: Sendable>(
        console: Console,
        _ body: @escaping @Sendable (PasskeyCaller, inout StoreContents, Date) throws(SWCredError) -> R
    ) async throws(SWCredError) -> R {
        if let origin {
            let parsed = try RelyingPartyID.Origin(parsing: origin)
            return try store.session(console).modify(createIfMissing: true) {
                (contents: inout StoreContents, now: Date) throws(SWCredError) -> R in
                try body(.browser(parsed), &contents, now)
            }
        }
        return try await SWCAppSession.open(
            storeOptions: store, app: app, source: source, console: console, simulator: false
        ).transact(body)
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
}

extension PublicKeyCredentialCreationOptions: PasskeyOptionsDocument {}
extension PublicKeyCredentialRequestOptions: PasskeyOptionsDocument {}

/// `--user allow|cancel`.
enum PasskeyUserOption: String, ExpressibleByArgument, Sendable {
    case allow, cancel
}
