import ArgumentParser
import Foundation
import SWCredAssociation
import SWCredCore
import SWCredKit
import SWCredRetrieval
import SWCredStore

/// `swcred request [DOMAIN] [--account A] app options [--pick first|ACCOUNT|cancel] [--profile legacy|current]`
/// (cli.md): the `SecRequestSharedWebCredential` path (shared-web-credentials.md §7).
///
/// Text output is `account<TAB>password`, so `read -r user pass` works; JSON is
/// `{"schema","credentials":[{"server","account","password","port"}],"completion":{"error"}}`.
/// Exit codes: 0 a credential was chosen; 13 the picker was canceled (legacy: empty array, no
/// error; current: empty array and `ASAuthorizationError` 1001); 44 nothing found; 11, 12, 14, 50
/// for the failed checks.
struct RequestCommand: SWCredSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Request a saved credential as an app (SecRequestSharedWebCredential).",
        discussion: HelpExamples.discussion("request", """
            The app is given by --entitlements (and --app-id). With an association source \
            (--aasa-dir, --direct, --cdn) the app's association records are refreshed from it first; \
            without one, the stored records are used. The simulated user picks with --pick.
            """)
    )

    @OptionGroup var formatOptions: FormatOptions
    @OptionGroup var storeOptions: GlobalStoreOptions
    @OptionGroup var app: AppOptions
    @OptionGroup var source: SourceOptions

    @Argument(help: "The domain (HOST or HOST:PORT); all of the app's webcredentials domains when omitted.")
    var domain: String?

    @Option(help: "Only credentials of this account (legacy profile).")
    var account: String?

    @Option(name: .customLong("pick"), help: ArgumentHelp(
        "The simulated user's choice in the picker: first, cancel, an account, or ask (on the terminal). "
            + "Default: ask on a terminal, first otherwise (scripts never wait).",
        valueName: "choice"))
    var pickOption: String?

    /// `--pick`, or its default: the real picker on a terminal, `first` without one.
    var pick: String { pickOption ?? (Console.interactiveTerminal ? "ask" : "first") }

    @Option(help: ArgumentHelp("legacy (iOS 8-15, default) or current (iOS 16+); env SWCRED_PROFILE.", valueName: "profile"))
    var profile: String?

    /// `--profile`, else `SWCRED_PROFILE`, else `nil` (the library's default, `legacy`).
    private var chosenProfile: String? {
        profile ?? ProcessInfo.processInfo.environment["SWCRED_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    @Flag(help: "Simulator mode: no entitlement or site-approval checks, AutoFill treated as on.")
    var simulator = false

    func validate() throws {
        guard app.isGiven else { throw ValidationError("give the app: --entitlements FILE and/or --app-id ID") }
        if let chosenProfile, SWCProfile(rawValue: chosenProfile) == nil {
            throw ValidationError("--profile (or SWCRED_PROFILE) must be legacy or current")
        }
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        let service = try await SWCCommandSupport.makeService(
            storeOptions: storeOptions, app: app, source: source, console: console,
            responder: pick == "ask"
                ? TerminalResponder(console: console)
                : SWCPolicyResponder(confirmation: .cancel, pick: .init(pickOption: pick)),
            profile: chosenProfile.flatMap(SWCProfile.init(rawValue:)), simulator: simulator)
        let report = await service.request(fqdn: domain, account: account)
        if let credentials = report.credentials, let credential = credentials.first {
            switch console.format {
            case .json:
                console.emitJSON(RequestResult(credentials: credentials, error: report.error))
            case .text:
                console.out("\(credential.account)\t\(credential.password)")
            }
            return .success
        }
        if report.credentials != nil {
            // Canceled (legacy: no error; current: ASAuthorizationError 1001): exit 13.
            switch console.format {
            case .json:
                console.emitJSON(RequestResult(credentials: [], error: report.error))
            case .text:
                console.err("swcred: the user canceled the picker"
                    + (report.error.map { " (\($0.code.domain ?? "") \($0.code.status ?? 0))" } ?? ""))
            }
            return .declined
        }
        throw report.error ?? SWCredError(.internalError, "the request ended without credentials or an error")
    }
}

/// cli.md `request` JSON: `{"schema","credentials":[{"server","account","password","port"}],"completion":{"error"}}`.
struct RequestResult: Encodable {
    struct Credential: Encodable {
        let server: String
        let account: String
        let password: String
        let port: Int?
        private enum Keys: String, CodingKey { case server, account, password, port }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(server, forKey: .server)
            try c.encode(account, forKey: .account)
            try c.encode(password, forKey: .password)
            try c.encode(port, forKey: .port)  // null when the credential has none
        }
    }
    let credentials: [Credential]
    let completion: CompletionDocument

    init(credentials: [SharedWebCredential], error: SWCredError?) {
        self.credentials = credentials.map {
            Credential(server: $0.server, account: $0.account, password: $0.password, port: $0.port)
        }
        self.completion = CompletionDocument(error)
    }
}

/// What an app's completion handler received: `{"error": null | {"code","status","domain","message"}}`.
struct CompletionDocument: Encodable {
    let error: ErrorDocument.Body?

    init(_ error: SWCredError?) {
        self.error = error.map(ErrorDocument.Body.init)
    }

    private enum Keys: String, CodingKey { case error }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(error, forKey: .error)  // explicit null on success
    }
}

/// The pieces `request` and the app path of `add` share.
enum SWCCommandSupport {
    /// Builds the Shared Web Credentials API for the command's app on the command's store:
    /// opens the store (creating it on first use, as cli.md says), and when an association source
    /// is given, installs the app in the emulated daemon and refreshes its records from the source.
    static func makeService(
        storeOptions: GlobalStoreOptions, app: AppOptions, source: SourceOptions, console: Console,
        responder: any SWCPromptResponder, profile: SWCProfile?, simulator: Bool
    ) async throws(SWCredError) -> SharedWebCredentials {
        let (backend, swcApp) = try await makeBackend(storeOptions: storeOptions, app: app, source: source, console: console)
        return service(backend: backend, app: swcApp, appOptions: app, responder: responder, profile: profile,
                       simulator: simulator)
    }

    /// A service over an already opened backend (`batch` builds one per request line, each with
    /// that line's simulated user, on one store opened once).
    static func service(
        backend: any SharedWebCredentialsBackend, app swcApp: SWCApp, appOptions app: AppOptions,
        responder: any SWCPromptResponder,
        profile: SWCProfile?, simulator: Bool
    ) -> SharedWebCredentials {
        var configuration = SWCConfiguration(simulator: simulator)
        if let profile { configuration.profile = profile }
        configuration.forceDeveloperMode = app.device.developerMode
        configuration.forceManagedDevice = app.device.managed
        return SharedWebCredentials(backend: backend, app: swcApp, responder: responder, configuration: configuration)
    }

    /// Opens (or creates) the store once — one key derivation for a passphrase store — and
    /// refreshes the app's association records from the source, if one was given.
    static func makeBackend(
        storeOptions: GlobalStoreOptions, app: AppOptions, source: SourceOptions, console: Console
    ) async throws(SWCredError) -> (StoreBackend, SWCApp) {
        let entitlements = try app.loadEntitlements()
        let swcApp: SWCApp
        if let entitlements {
            swcApp = SWCApp(entitlements: entitlements, appID: app.appID)
        } else {
            // `--app-id` alone: an app with no associated domains.
            swcApp = SWCApp(appID: app.appID, associatedDomains: [])
        }
        // Open the store, creating it first when it does not exist yet (cli.md: the first add just
        // works), through one session: a passphrase from stdin is read once, Argon2id runs once.
        // The whole file is verified here, so a damaged store fails with its own code.
        let session = try storeOptions.session(console)
        let store = try session.storeCreatingIfMissing()
        _ = try session.read()
        let backend = StoreBackend(store: store)
        // Refresh the app's association records from the source, if one was given.
        if source.selectedKind != nil {
            guard let entitlements else {
                throw SWCredError(.usage, "an association source needs --entitlements FILE")
            }
            let identity = try AppIdentity(appID: app.appID, entitlements: entitlements)
            let device = app.device.settings
            do {
                guard let selection = try source.selection() else { return (backend, swcApp) }
                try await AssociationSources.with(selection, device: device) { fileSource in
                    try await backend.installAndRefresh(app: identity, source: fileSource, device: device)
                }
            } catch let error as SWCredError {
                throw error
            } catch {
                throw SWCredError(.internalError, "could not set up the association source: \(error)")
            }
        }
        return (backend, swcApp)
    }
}

/// Shows prompts and the picker on the controlling terminal (`--user ask`, `--pick ask`) and reads
/// the answer from it (SWC-4.1). Prompts go to the terminal, never to stdout.
///
/// **Decision (SWC-4.5):** without a terminal the answer is `cancel`, said on stderr; nothing ever
/// waits for input that cannot come. An empty line or end of input is `cancel` too.
struct TerminalResponder: SWCPromptResponder {
    let console: Console

    func respond(to prompt: SWCPrompt) async -> SWCPromptAnswer {
        let console = self.console
        return await withCheckedContinuation { continuation in
            // Terminal reads block: keep them off Swift's cooperative pool.
            let thread = Thread { continuation.resume(returning: Self.ask(prompt, console: console)) }
            thread.start()
        }
    }

    private static func ask(_ prompt: SWCPrompt, console: Console) -> SWCPromptAnswer {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard tty >= 0 else {
            console.err("swcred: no terminal to show the \(prompt.kind.rawValue) prompt; answering cancel")
            return .cancel
        }
        defer { close(tty) }
        var text = "\n\(prompt.title)\n"
        if !prompt.message.isEmpty { text += "\(prompt.message)\n" }
        if prompt.kind == .select {
            for (index, candidate) in prompt.candidates.enumerated() {
                text += "  \(index + 1)) \(candidate.account) (\(candidate.server)\(candidate.port.map { ":\($0)" } ?? ""))\n"
            }
            text += "Number to use, or Enter for \(prompt.otherButton): "
        } else {
            text += "[s] \(prompt.allowButton)  [n] \(prompt.otherButton)  [Enter] dismiss: "
        }
        Self.write(tty, text)
        let line = Self.readLine(tty).trimmingCharacters(in: .whitespaces).lowercased()
        if prompt.kind == .select {
            guard let number = Int(line), prompt.candidates.indices.contains(number - 1) else { return .cancel }
            return .choose(number - 1)
        }
        switch line {
        case "s", "save", "y", "yes", "allow", "u", "update", "d", "delete": return .allow
        case "n", "no", "not now", "never": return .notNow
        default: return .cancel
        }
    }

    private static func write(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { raw in
                Foundation.write(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset)
            }
            if written > 0 { offset += written } else if written < 0 && errno == EINTR { continue } else { return }
        }
    }

    /// One line of at most 256 bytes (more is ignored), without its line ending.
    private static func readLine(_ fd: Int32) -> String {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(fd, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1, byte != UInt8(ascii: "\n") else { break }
            if line.count < 256, byte != UInt8(ascii: "\r") { line.append(byte) }
        }
        return String(decoding: line, as: UTF8.self)
    }
}
