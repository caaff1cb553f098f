import ArgumentParser
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredStore

/// `swcred batch`: JSON-lines requests on stdin, JSON-lines results on stdout, one unlock for the
/// whole batch.
///
/// The store is opened once — for a passphrase store that is the only key derivation — and the
/// app's association records are refreshed once when a source is given. Each line then runs as
/// the app, with that line's simulated user (the line forms: `BatchOperation`).
///
/// Each result line carries `schema`, the request's `id`, `op`, `exit` (the exit code the single
/// command would have given) and either the single command's JSON fields (`credentials` /
/// `completion` for `request`; `status`, `operation`, `item`, `completion` for `add`) or `error`.
/// Passwords travel on stdin, never on argv. A malformed line gets an `error` result (exit 65)
/// and the batch goes on. The batch exits 0 when every line did, otherwise with the first
/// non-zero line's code.
///
/// The flow is the library's: `BatchLineReader` cuts stdin into groups of up to ``groupSize``
/// lines (where the input pauses), `BatchLine` types each line as a `BatchOperation`, and
/// `BatchExecutor` runs a group in one store transaction and returns its outcomes once the write
/// is durable; this command prints them.
struct BatchCommand: StoreSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "batch", abstract: "Run JSON-lines requests from stdin as the app, with one store unlock for the whole batch.",
        discussion: """
            Each stdin line is {"id", "op": "request"|"add", "domain", "account", ...}; request takes \
            "pick" (first|cancel|ACCOUNT), add takes "password", "delete": true or "generate": true, and \
            "user" (allow|not-now|cancel); passkey-register and passkey-assert take "options" (the WebAuthn \
            options object), "user" (allow|cancel) and, for assert, "pick". Results are JSON lines on \
            stdout with "id" and "exit" (passkey results carry "credential").

            Example:
              printf '%s\\n' '{"id":1,"op":"request","domain":"tacos.example"}' |
                swcred batch --entitlements Fixtures/apps/TacoShop.entitlements \\
                  --aasa-dir Fixtures/sites
            """)

    @OptionGroup var storeOptions: GlobalStoreOptions
    @OptionGroup var app: AppOptions
    @OptionGroup var source: SourceOptions

    @Option(help: ArgumentHelp("legacy (default) or current, for every request line.", valueName: "profile"))
    var profile: String?

    /// The largest request line accepted.
    static let maximumLineBytes = BatchLineReader.defaultMaximumLineBytes

    func validate() throws {
        guard app.isGiven else { throw ValidationError("give the app: --entitlements FILE and/or --app-id ID, or --app PATH") }
        if storeOptions.passphraseStdin {
            throw ValidationError("stdin carries the requests; give the passphrase with --passphrase-file or --passphrase-fd")
        }
        if let profile, SWCProfile(rawValue: profile) == nil { throw ValidationError("--profile must be legacy or current") }
    }

    /// The most request lines run in one store transaction (one durable write).
    static let groupSize = 1_000

    func execute(_ console: Console) async throws -> ExitStatus {
        // A batch asks and answers thousands of prompts, each through short-lived tasks on the
        // global executor (PromptArbiter). Resuming the command on the main thread after each one
        // (CurrentThreadExecutor) cost a futex wake and two context switches per line: 10,000 adds
        // took 1.07 s of CPU instead of 0.81 s. The batch therefore runs on the global executor.
        if #available(macOS 15.0, *) {
            return try await withTaskExecutorPreference(globalConcurrentExecutor) { try await runBatch(console) }
        }
        return try await runBatch(console)
    }

    private func runBatch(_ console: Console) async throws -> ExitStatus {
        let session = try await SWCAppSession.open(
            storeOptions: storeOptions, app: app, source: source, console: console, simulator: false)
        let executor = BatchExecutor(
            session: session, requestProfile: profile.flatMap(SWCProfile.init(rawValue:)),
            maximumLineBytes: Self.maximumLineBytes)
        let input = BatchLineReader(descriptor: CommandContext.current.standardInput, maximumLineBytes: Self.maximumLineBytes)
        var firstFailure = ExitStatus.success
        while let group = input.nextGroup(limit: Self.groupSize) {
            for outcome in await executor.run(group) {
                let result = BatchResult(outcome)
                console.emitJSONLine(result)
                if result.exit != 0 && firstFailure == .success { firstFailure = ExitStatus(rawValue: result.exit) ?? .failure }
            }
        }
        return firstFailure
    }
}

/// One result line: the outcome's JSON fields (those of the single command), `id`, `op`, and
/// `exit`, the status the single command would have exited with.
struct BatchResult: Encodable {
    let outcome: BatchOutcome
    let exit: Int32

    init(_ outcome: BatchOutcome) {
        self.outcome = outcome
        switch outcome.result {
        case .success(.request(let credentials, _)): exit = ExitStatus(requestCanceled: credentials.isEmpty).rawValue
        case .success(.add(let report)): exit = ExitStatus(report).rawValue
        case .success(.passkeyRegistration), .success(.passkeyAssertion): exit = 0
        case .failure(let error): exit = ExitStatus(error.code).rawValue
        }
    }

    private enum Keys: String, CodingKey { case id, op, exit, error }
    func encode(to encoder: any Encoder) throws {
        switch outcome.result {
        case .success(.request(let credentials, let error)):
            try SWCRequestDocument(credentials: credentials, error: error).encode(to: encoder)
        case .success(.add(let report)): try SWCAddDocument(report: report).encode(to: encoder)
        case .success(.passkeyRegistration(let credential)): try PasskeyCredentialDocument(credential: credential).encode(to: encoder)
        case .success(.passkeyAssertion(let credential)): try PasskeyCredentialDocument(credential: credential).encode(to: encoder)
        case .failure: break
        }
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(outcome.id ?? .null, forKey: .id)
        try c.encode(outcome.op, forKey: .op)
        try c.encode(exit, forKey: .exit)
        if case .failure(let error) = outcome.result { try c.encode(SWCredError.Document(error), forKey: .error) }
    }
}
