import ArgumentParser
import Foundation
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredStore

/// `swcred passkey register|assert|list|delete` (cli.md `passkey`; PasskeyDecisions.md).
struct PasskeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passkey",
        abstract: "Register and use passkeys governed by the webcredentials association.",
        discussion: HelpExamples.discussion("passkey", """
            register reads PublicKeyCredentialCreationOptionsJSON and prints RegistrationResponseJSON; \
            assert reads PublicKeyCredentialRequestOptionsJSON and prints AuthenticationResponseJSON. \
            As an app (--entitlements/--app-id) the RP ID must be covered by an active, approved \
            webcredentials entry; as a browser (--origin) it must be the origin's host or a registrable \
            suffix. Exit codes: 11/12 association, 13 canceled, 44 no passkey, 45 excludeCredentials, \
            50 bad options, 65 malformed JSON.
            """),
        subcommands: [PasskeyRegisterCommand.self, PasskeyAssertCommand.self, PasskeyListCommand.self, PasskeyDeleteCommand.self]
    )
}

/// The caller options shared by `register` and `assert`: an app (app options) or a browser (`--origin`).
struct PasskeyCallerOptions: ParsableArguments {
    @OptionGroup var app: AppOptions
    @OptionGroup var source: SourceOptions

    @Option(help: ArgumentHelp("Act as a browser page at this origin (https://host[:port], or http://localhost).", valueName: "origin"))
    var origin: String?

    func validate() throws {
        if origin != nil, app.isGiven {
            throw ValidationError("give either app options (--entitlements/--app-id) or --origin, not both")
        }
        if origin == nil, !app.isGiven {
            throw ValidationError("give the caller: --entitlements FILE (and --app-id) for an app, or --origin for a browser")
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
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count < limit {
            let count = buffer.withUnsafeMutableBytes { read(CommandContext.current.standardInput, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
        throw SWCredError(.fileNotFound, "cannot read the options file \(path)")
    }
    defer { try? handle.close() }
    do {
        return Array(try handle.read(upToCount: limit) ?? Data())
    } catch {
        throw SWCredError(.fileNotFound, "cannot read the options file \(path)")
    }
}

extension PasskeyCallerOptions {
    /// Runs `body` in one store transaction for the caller: for an app, its association records are
    /// refreshed from the source first (as `request` does) and the app is built from its entitlements.
    func transact<R: Sendable>(
        storeOptions: GlobalStoreOptions, console: Console,
        _ body: @escaping @Sendable (PasskeyCaller, inout StoreContents, Date) throws(SWCredError) -> R
    ) async throws(SWCredError) -> R {
        if let origin {
            let parsed = try RelyingPartyID.Origin(parsing: origin)
            return try storeOptions.session(console).modify(createIfMissing: true) {
                (contents: inout StoreContents, now: Date) throws(SWCredError) -> R in
                try body(.browser(parsed), &contents, now)
            }
        }
        let (backend, swcApp) = try await SWCCommandSupport.makeBackend(
            storeOptions: storeOptions, app: app, source: source, console: console)
        return try await Self.asApp(store: backend.store, app: swcApp, device: app.device, body)
    }

    /// Runs `body` in one transaction of `store` as the app (the device settings of the store,
    /// with `--developer-mode` / `--managed` forced on when given).
    static func asApp<R: Sendable>(
        store: KeychainStore, app swcApp: SWCApp, device options: DeviceOptions,
        _ body: @escaping @Sendable (PasskeyCaller, inout StoreContents, Date) throws(SWCredError) -> R
    ) async throws(SWCredError) -> R {
        let forceDeveloper = options.developerMode
        let forceManaged = options.managed
        do {
            return try store.transaction { (contents: inout StoreContents, now: Date) throws -> R in
                var device = SWCDeviceSettings(contents.settings)
                if forceDeveloper { device.developerMode = true }
                if forceManaged { device.managedDevice = true }
                return try body(.app(swcApp, device: device), &contents, now)
            }
        } catch let error as SWCredError {
            throw error
        } catch {
            throw SWCredError(.internalError, "unexpected error in a store transaction: \(error)")
        }
    }
}

/// Prints passkey errors with their WebAuthn name (`"name"` in JSON) and returns the exit code.
func reportPasskeyError(_ error: SWCredError, console: Console) -> ExitStatus {
    guard let failure = PasskeyFailure(error) else {
        console.report(error)
        return ExitStatus(error.code)
    }
    switch console.format {
    case .text: console.report(error)
    case .json:
        console.err(Console.encode(PasskeyErrorDocument(error: .init(error), name: failure.webAuthnName), pretty: false))
    }
    return ExitStatus(error.code)
}

/// `{"error":{"code","status","domain","message","name"}}`: the error document plus the WebAuthn name.
struct PasskeyErrorDocument: Encodable {
    let error: ErrorDocument.Body
    let name: String
    private enum Keys: String, CodingKey { case error }
    private enum Inner: String, CodingKey { case name }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(Combined(body: error, name: name), forKey: .error)
    }
    struct Combined: Encodable {
        let body: ErrorDocument.Body
        let name: String
        func encode(to encoder: any Encoder) throws {
            try body.encode(to: encoder)
            var c = encoder.container(keyedBy: Inner.self)
            try c.encode(name, forKey: .name)
        }
    }
}

/// `{"schema","credential":{…}}` for `--format json`.
struct PasskeyCredentialDocument<Credential: Encodable>: Encodable {
    let credential: Credential
}

/// `swcred passkey register OPTIONS|-`.
struct PasskeyRegisterCommand: SWCredSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Create a passkey from PublicKeyCredentialCreationOptionsJSON; prints RegistrationResponseJSON."
    )

    @OptionGroup var formatOptions: FormatOptions
    @OptionGroup var storeOptions: GlobalStoreOptions
    @OptionGroup var caller: PasskeyCallerOptions

    @Argument(help: "The creation options JSON file, or - for stdin.")
    var options: String

    @Option(help: ArgumentHelp("The simulated user's answer: allow (default) or cancel.", valueName: "answer"))
    var user: PasskeyUserOption = .allow

    func execute(_ console: Console) async throws -> ExitStatus {
        do {
            let bytes = try readPasskeyOptions(options, storeOptions: storeOptions)
            let parsed = try PublicKeyCredentialCreationOptions(json: bytes, asApp: caller.origin == nil)
            let answer: PasskeyDecision = user == .allow ? .allow : .cancel
            let response = try await caller.transact(storeOptions: storeOptions, console: console) {
                (who: PasskeyCaller, contents: inout StoreContents, now: Date) throws(SWCredError) -> RegistrationResponse in
                let response = try PasskeyAuthenticator.register(
                    parsed, caller: who, responder: { _ in answer }, in: &contents, at: now)
                // Debug builds, for the T10/T11 tests: the decrypted store with its keys is in memory here.
                TestPausePoint.pauseIfRequested("passkey-in-transaction")
                return response
            }
            emit(response, console: console)
            return .success
        } catch {
            return reportPasskeyError(error, console: console)
        }
    }
}

/// `swcred passkey assert OPTIONS|-`.
struct PasskeyAssertCommand: SWCredSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "assert",
        abstract: "Sign in with a passkey from PublicKeyCredentialRequestOptionsJSON; prints AuthenticationResponseJSON."
    )

    @OptionGroup var formatOptions: FormatOptions
    @OptionGroup var storeOptions: GlobalStoreOptions
    @OptionGroup var caller: PasskeyCallerOptions

    @Argument(help: "The request options JSON file, or - for stdin.")
    var options: String

    @Option(help: ArgumentHelp("The simulated user's answer: allow (default) or cancel.", valueName: "answer"))
    var user: PasskeyUserOption = .allow

    @Option(help: ArgumentHelp("The account chosen in the sheet: first (default), a user name, or cancel.", valueName: "choice"))
    var pick: String = "first"

    func execute(_ console: Console) async throws -> ExitStatus {
        do {
            let bytes = try readPasskeyOptions(options, storeOptions: storeOptions)
            let parsed = try PublicKeyCredentialRequestOptions(json: bytes, asApp: caller.origin == nil)
            let pick = self.pick
            let user = self.user
            let response = try await caller.transact(storeOptions: storeOptions, console: console) {
                (who: PasskeyCaller, contents: inout StoreContents, now: Date) throws(SWCredError) -> AuthenticationResponse in
                let response = try PasskeyAuthenticator.authenticate(
                    parsed, caller: who,
                    responder: { prompt in
                        if user == .cancel || pick == "cancel" { return .cancel }
                        if pick == "first" { return .allow }
                        // A user name not offered: the choice cannot be made (NotAllowedError, 44).
                        return .choose(prompt.userNames.firstIndex(of: pick) ?? -1)
                    },
                    in: &contents, at: now)
                TestPausePoint.pauseIfRequested("passkey-in-transaction")
                return response
            }
            emit(response, console: console)
            return .success
        } catch {
            return reportPasskeyError(error, console: console)
        }
    }
}

extension SWCredSubcommand {
    /// The response alone (text), or `{"schema","credential":{…}}` (JSON).
    func emit<Credential: Encodable>(_ credential: Credential, console: Console) {
        switch console.format {
        case .text: console.out(Console.encodePlain(credential))
        case .json: console.emitJSON(PasskeyCredentialDocument(credential: credential))
        }
    }
}

extension Console {
    /// One compact JSON object without the schema field (the WebAuthn response as a server takes it).
    static func encodePlain<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// `--user allow|cancel`.
enum PasskeyUserOption: String, ExpressibleByArgument, Sendable {
    case allow, cancel
}

/// `swcred passkey list [RPID]`: passkeys, never key material.
struct PasskeyListCommand: SWCredSubcommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List passkeys (never key material).")

    @OptionGroup var formatOptions: FormatOptions
    @OptionGroup var storeOptions: GlobalStoreOptions

    @Argument(help: "Only passkeys of this RP ID.")
    var rpID: String?

    func execute(_ console: Console) async throws -> ExitStatus {
        let filter = rpID.map { HostName.lowercasedASCII($0) }
        let passkeys = try storeOptions.session(console).read().contents.passkeys
            .filter { filter == nil || $0.rpID == filter }.map(ListedPasskey.init)
        switch console.format {
        case .json: console.emitJSON(PasskeyListResult(passkeys: passkeys))
        case .text:
            for passkey in passkeys { console.out("\(passkey.rpID)\t\(passkey.userName)\t\(passkey.credentialID)") }
        }
        return .success
    }
}

/// One passkey as `list` prints it.
struct ListedPasskey: Encodable, Sendable {
    let rpID: String
    let credentialID: String
    let userHandle: String
    let userName: String
    let displayName: String
    let created: Date
    let lastUsed: Date

    init(_ item: PasskeyItem) {
        rpID = item.rpID
        credentialID = Base64URL.encode(item.credentialID)
        userHandle = Base64URL.encode(item.userHandle)
        userName = item.userName
        displayName = item.displayName
        created = item.creationDate
        lastUsed = item.lastUsedDate
    }
}

struct PasskeyListResult: Encodable {
    let passkeys: [ListedPasskey]
}

/// `swcred passkey delete RPID CREDENTIAL_ID` (the ID base64url).
struct PasskeyDeleteCommand: SWCredSubcommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a passkey.")

    @OptionGroup var formatOptions: FormatOptions
    @OptionGroup var storeOptions: GlobalStoreOptions

    @Argument(help: "The RP ID.")
    var rpID: String

    @Argument(help: "The credential ID, base64url.")
    var credentialID: String

    func execute(_ console: Console) async throws -> ExitStatus {
        guard let id = Base64URL.decode(credentialID), !id.isEmpty else {
            throw SWCredError(.invalidParameter, "the credential ID is not base64url")
        }
        let rp = HostName.lowercasedASCII(rpID)
        let removed = try storeOptions.session(console).modify(createIfMissing: false) {
            (contents: inout StoreContents, _: Date) throws(SWCredError) -> ListedPasskey in
            ListedPasskey(try contents.deletePasskey(rpID: rp, credentialID: id))
        }
        switch console.format {
        case .json: console.emitJSON(PasskeyDeleteResult(operation: "deleted", passkey: removed))
        case .text: console.out("deleted the passkey of \(removed.userName) for \(removed.rpID)")
        }
        return .success
    }
}

extension PasskeyDeleteCommand {
    /// The options of `passkey delete` that take a separate value (`--format json`).
    static let valueTakingOptions: Set<String> = [
        "--format", "--store", "--key-file", "--passphrase-file", "--passphrase-fd", "--lock-timeout",
    ]
    /// Its flags.
    static let flagOptions: Set<String> = ["--passphrase-stdin", "--allow-rollback", "--version", "--help", "-h"]

    /// argv (without the program name) with a credential ID that starts with `-` placed after `--`.
    ///
    /// base64url's alphabet includes `-`, so one credential ID in 64 starts with it, and
    /// ArgumentParser reads such a token as options: `-AbCh…` as a pack of short options with
    /// `-h` in it (it printed the help and exited 0, deleting nothing), others as an unknown
    /// option (64). For `passkey delete` a token that starts with `-` and is none of the command's
    /// options (`--name` or `--name=value`) is a positional; the positionals move, in order, behind
    /// a `--` after the options, so `delete RPID -AbC… --format json` means what it says. Any
    /// other argv is returned unchanged, and so is one that already has a `--`.
    static func protectingDashedCredentialID(_ arguments: [String]) -> [String] {
        guard arguments.count > 2, arguments[0] == "passkey", arguments[1] == "delete", !arguments.contains("--") else {
            return arguments
        }
        var options: [String] = []
        var positionals: [String] = []
        var moved = false
        var rest = arguments.dropFirst(2)[...]
        while let token = rest.popFirst() {
            let name = token.split(separator: "=", maxSplits: 1).first.map(String.init) ?? token
            if valueTakingOptions.contains(name) {
                options.append(token)
                if name == token, let value = rest.popFirst() { options.append(value) }
            } else if flagOptions.contains(token) {
                options.append(token)
            } else {
                positionals.append(token)
                if token.hasPrefix("-"), token != "-" { moved = true }
            }
        }
        guard moved else { return arguments }
        return ["passkey", "delete"] + options + ["--"] + positionals
    }
}

struct PasskeyDeleteResult: Encodable {
    let operation: String
    let passkey: ListedPasskey
}
