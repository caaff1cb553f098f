import ArgumentParser
import SWCredCore
import SWCredKit

/// `swcred request [DOMAIN] [--account A] app options [--pick first|ACCOUNT|cancel] [--profile legacy|current]`
/// (cli.md): the `SecRequestSharedWebCredential` path (shared-web-credentials.md §7).
///
/// Text output is `account<TAB>password`, so `read -r user pass` works; JSON is
/// `{"schema","credentials":[{"server","account","password","port"}],"completion":{"error"}}`.
/// Exit codes: 0 a credential was chosen; 13 the picker was canceled (legacy: empty array, no
/// error; current: empty array and `ASAuthorizationError` 1001); 44 nothing found; 11, 12, 14, 50
/// for the failed checks.
struct RequestCommand: StoreSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "request", abstract: "Request a saved credential as an app (SecRequestSharedWebCredential).",
        discussion: """
            The app is given by --entitlements (and --app-id). With an association source \
            (--aasa-dir, --direct, --cdn) the app's association records are refreshed from it first; \
            without one, the stored records are used. The simulated user picks with --pick.
            """)

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
        profile ?? CommandContext.current.environment["SWCRED_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    @Flag(help: "Simulator mode: no entitlement or site-approval checks, AutoFill treated as on.")
    var simulator = false

    func validate() throws {
        guard app.isGiven else { throw ValidationError("give the app: --entitlements FILE and/or --app-id ID, or --app PATH") }
        if let chosenProfile, SWCProfile(rawValue: chosenProfile) == nil {
            throw ValidationError("--profile (or SWCRED_PROFILE) must be legacy or current")
        }
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        let policy = SWCPickCheckingResponder(SWCPolicyResponder(confirmation: .cancel, pick: .init(pickOption: pick)))
        let service = try await SWCAppSession.open(
            storeOptions: storeOptions, app: app, source: source, console: console, simulator: simulator
        ).service(
            responder: pick == "ask" ? SWCTerminalResponder { console.err("swcred: \($0)") } : policy,
            profile: chosenProfile.flatMap(SWCProfile.init(rawValue:)))
        let report = await service.request(fqdn: domain, account: account)
        try policy.checkChoice()
        if let credentials = report.credentials, let credential = credentials.first {
            console.emit(SWCRequestDocument(credentials: credentials, error: report.error)) {
                console.out("\(credential.account)\t\(credential.password)")
            }
            return ExitStatus(requestCanceled: false)
        }
        if report.canceled {
            // Canceled (legacy: no error; current: ASAuthorizationError 1001): exit 13.
            console.emit(SWCRequestDocument(credentials: [], error: report.error)) {
                console.err("swcred: the user canceled the picker"
                    + (report.error.map { " (\($0.code.domain ?? "") \($0.code.status ?? 0))" } ?? ""))
            }
            return ExitStatus(requestCanceled: true)
        }
        throw report.error ?? SWCredError(.internalError, "the request ended without credentials or an error")
    }
}
