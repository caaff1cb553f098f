import ArgumentParser
import Foundation
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredPasswords
import SWCredStore

/// `swcred batch`: JSON-lines requests on stdin, JSON-lines results on stdout, one unlock for the
/// whole batch.
///
/// The store is opened once — for a passphrase store that is the only key derivation — and the
/// app's association records are refreshed once when a source is given. Each line then runs as
/// the app, with that line's simulated user:
///
/// ```
/// {"id": 1, "op": "request", "domain": "tacos.example", "account": null, "pick": "first"}
/// {"id": 2, "op": "add", "domain": "tacos.example", "account": "bob", "password": "…", "user": "allow"}
/// {"id": 3, "op": "add", "domain": "tacos.example", "account": "bob", "delete": true}
/// {"id": 4, "op": "add", "domain": "tacos.example", "account": "eve", "generate": true}
/// {"id": 5, "op": "passkey-register", "options": {…CreationOptionsJSON…}, "user": "allow"}
/// {"id": 6, "op": "passkey-assert", "options": {…RequestOptionsJSON…}, "pick": "first"}
/// ```
///
/// Each result line carries `schema`, the request's `id`, `op`, `exit` (the exit code the single
/// command would have given) and either the single command's JSON fields (`credentials` /
/// `completion` for `request`; `status`, `operation`, `item`, `completion` for `add`) or `error`.
/// Passwords travel on stdin, never on argv. A malformed line gets an `error` result (exit 65)
/// and the batch goes on. The batch exits 0 when every line did, otherwise with the first
/// non-zero line's code.
///
/// **Decision (issue 13, batch at scale):** lines run in groups, one store transaction per group:
/// the lines already waiting on stdin, up to ``groupSize``, run one after another on the
/// transaction's contents (each sees the changes of those before it), the group is written once
/// (temporary file, `fsync`, rename, directory `fsync`), and only then are its result lines
/// printed — a result is never printed before its write is durable. A group ends where the input
/// pauses, so a caller who waits for each result before sending the next line gets it at once.
/// If a group's write fails, each line of it that changed something reports that failure
/// instead of its result. The store's write lock is held while a group runs.
struct BatchCommand: SWCredSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Run JSON-lines requests from stdin as the app, with one store unlock for the whole batch.",
        discussion: """
            Each stdin line is {"id", "op": "request"|"add", "domain", "account", ...}; request takes \
            "pick" (first|cancel|ACCOUNT), add takes "password", "delete": true or "generate": true, and \
            "user" (allow|not-now|cancel); passkey-register and passkey-assert take "options" (the WebAuthn \
            options object), "user" (allow|cancel) and, for assert, "pick". Results are JSON lines on \
            stdout with "id" and "exit" (passkey results carry "credential").

            Example:
              printf '%s\\n' '{"id":1,"op":"request","domain":"tacos.example"}' |
                swcred batch --entitlements Fixtures/apps/TacoShop.entitlements --aasa-dir Fixtures/sites
            """
    )

    @OptionGroup var formatOptions: FormatOptions
    @OptionGroup var storeOptions: GlobalStoreOptions
    @OptionGroup var app: AppOptions
    @OptionGroup var source: SourceOptions

    @Option(help: ArgumentHelp("legacy (default) or current, for every request line.", valueName: "profile"))
    var profile: String?

    /// The largest request line accepted.
    static let maximumLineBytes = 64 * 1024

    func validate() throws {
        guard app.isGiven else { throw ValidationError("give the app: --entitlements FILE and/or --app-id ID") }
        if storeOptions.passphraseStdin {
            throw ValidationError("stdin carries the requests; give the passphrase with --passphrase-file or --passphrase-fd")
        }
        if let profile, SWCProfile(rawValue: profile) == nil { throw ValidationError("--profile must be legacy or current") }
    }

    /// The most request lines run in one store transaction (one durable write).
    static let groupSize = 1_000

    func execute(_ console: Console) async throws -> ExitStatus {
        let (backend, swcApp) = try await SWCCommandSupport.makeBackend(
            storeOptions: storeOptions, app: app, source: source, console: console)
        let input = BatchInput(maximumLineBytes: Self.maximumLineBytes)
        var firstFailure = ExitStatus.success
        var lineNumber = 0
        var ended = false
        while !ended {
            // A group: the lines already available, up to groupSize; wait only for its first line,
            // so that a caller who waits for each result before sending the next line gets it.
            var group: [(number: Int, text: String)] = []
            collect: while group.count < Self.groupSize {
                switch input.next(wait: group.isEmpty) {
                case .line(let text):
                    lineNumber += 1
                    if !text.allSatisfy(\.isWhitespace) { group.append((lineNumber, text)) }
                case .wouldBlock:
                    break collect
                case .end:
                    ended = true
                    break collect
                }
            }
            guard !group.isEmpty else { continue }
            for result in await runGroup(group, store: backend.store, app: swcApp) {
                console.emitJSONLine(result)
                if result.exit != 0 && firstFailure == .success { firstFailure = ExitStatus(rawValue: result.exit) ?? .failure }
            }
        }
        return firstFailure
    }

    /// Runs a group of lines in one store transaction and returns their results once the
    /// transaction's write is durable (cli.md: a result line is printed only after its write).
    ///
    /// The lines run one after another on the transaction's contents, each seeing the changes of
    /// the lines before it, as separate commands would. If the commit fails, every line that
    /// changed something gets the commit's error instead of its result (nothing of the group was
    /// saved); lines that only read keep theirs.
    private func runGroup(_ group: [(number: Int, text: String)], store: KeychainStore, app swcApp: SWCApp) async
        -> [BatchResult]
    {
        var requests: [Result<BatchRequest, SWCredError>] = []
        for (number, text) in group {
            do throws(SWCredError) {
                requests.append(.success(try BatchRequest.decode(text, number: number)))
            } catch {
                requests.append(.failure(error))
            }
        }
        let open: StoreTransaction
        do throws(SWCredError) {
            open = try store.beginTransaction()
        } catch {
            return requests.map { request in
                switch request {
                case .success(let request): BatchResult(id: request.id, op: request.op, exit: ExitStatus(error.code).rawValue, error: error)
                case .failure(let failure): BatchResult(id: nil, op: nil, exit: ExitStatus(failure.code).rawValue, error: failure)
                }
            }
        }
        let working = TransactionBackend(contents: open.contents, clock: store.options.clock)
        var results: [(result: BatchResult, changed: Bool)] = []
        for request in requests {
            switch request {
            case .success(let request):
                let before = working.changes
                let result = await run(request, backend: working, app: swcApp)
                results.append((result, working.changes != before))
            case .failure(let error):
                results.append((BatchResult(id: nil, op: nil, exit: ExitStatus(error.code).rawValue, error: error), false))
            }
        }
        open.contents = working.contents
        do throws(SWCredError) {
            try open.commit()
        } catch {
            return results.map { entry in
                entry.changed
                    ? BatchResult(id: entry.result.id, op: entry.result.op, exit: ExitStatus(error.code).rawValue, error: error)
                    : entry.result
            }
        }
        return results.map { $0.result }
    }

    private func run(_ request: BatchRequest, backend: any SharedWebCredentialsBackend, app swcApp: SWCApp) async -> BatchResult {
        do throws(SWCredError) {
            switch request.op {
            case "request":
                let service = SWCCommandSupport.service(
                    backend: backend, app: swcApp, appOptions: app,
                    responder: SWCPolicyResponder(confirmation: .cancel, pick: .init(pickOption: request.pick ?? "first")),
                    profile: profile.flatMap(SWCProfile.init(rawValue:)), simulator: false)
                let report = await service.request(fqdn: request.domain, account: request.account)
                if let credentials = report.credentials {
                    let body = RequestResult(credentials: Array(credentials.prefix(1)), error: report.error)
                    return BatchResult(request, exit: (credentials.isEmpty ? ExitStatus.declined : .success).rawValue, body: .request(body))
                }
                throw report.error ?? SWCredError(.internalError, "the request ended without credentials or an error")
            case "add":
                guard let account = request.account else {
                    throw SWCredError(.malformedInput, "line \(request.line): add needs \"account\"")
                }
                let sources = [request.password != nil, request.delete == true, request.generate == true].filter { $0 }
                guard sources.count == 1 else {
                    throw SWCredError(.malformedInput, "line \(request.line): add takes exactly one of \"password\", \"delete\": true, \"generate\": true")
                }
                let password: String? =
                    request.generate == true ? try PasswordGenerator.legacy() : request.password
                let answer = try SWCPromptAnswer(userOption: request.user ?? "allow")
                let service = SWCCommandSupport.service(
                    backend: backend, app: swcApp, appOptions: app,
                    responder: SWCPolicyResponder(confirmation: answer, pick: .cancel), profile: nil, simulator: false)
                let report = await service.add(fqdn: request.domain, account: account, password: password)
                try report.throwCompletionError()
                return BatchResult(request, exit: report.exitStatus.rawValue, body: .add(AppAddResult(report: report)))
            case "passkey-register", "passkey-assert":
                guard let working = backend as? TransactionBackend else {
                    throw SWCredError(.internalError, "passkey lines run inside the batch's store transaction")
                }
                return try runPasskey(request, backend: working, app: swcApp)
            default:
                throw SWCredError(.malformedInput, "line \(request.line): unknown op \"\(request.op)\" (request or add)")
            }
        } catch {
            return BatchResult(id: request.id, op: request.op, exit: ExitStatus(error.code).rawValue, error: error)
        }
    }
}

/// One result line.
struct BatchResult: Encodable {
    enum Body {
        case request(RequestResult)
        case add(AppAddResult)
        case passkeyRegistration(RegistrationResponse)
        case passkeyAssertion(AuthenticationResponse)
    }

    let id: JSONScalar?
    let op: String?
    let exit: Int32
    var body: Body?
    var error: ErrorDocument.Body?

    init(id: JSONScalar?, op: String?, exit: Int32, error: SWCredError) {
        self.id = id
        self.op = op
        self.exit = exit
        self.error = ErrorDocument.Body(error)
    }

    init(_ request: BatchRequest, exit: Int32, body: Body) {
        id = request.id
        op = request.op
        self.exit = exit
        self.body = body
    }

    private enum Keys: String, CodingKey { case id, op, exit, error }
    func encode(to encoder: any Encoder) throws {
        switch body {
        case .request(let result): try result.encode(to: encoder)
        case .add(let result): try result.encode(to: encoder)
        case .passkeyRegistration(let credential): try PasskeyCredentialDocument(credential: credential).encode(to: encoder)
        case .passkeyAssertion(let credential): try PasskeyCredentialDocument(credential: credential).encode(to: encoder)
        case nil: break
        }
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(id ?? .null, forKey: .id)
        try c.encode(op, forKey: .op)
        try c.encode(exit, forKey: .exit)
        try c.encodeIfPresent(error, forKey: .error)
    }
}

/// Standard input as lines, read with `read(2)` so that the batch can tell whether another line
/// is available without blocking (`poll`), which decides where a group of lines ends.
///
/// Lines end with LF (a CRLF loses its CR too); the last line may lack one. A line longer than
/// the limit is consumed whole and returned truncated, so that decoding reports it as malformed
/// without holding it in memory.
final class BatchInput {
    enum Next {
        case line(String)
        case wouldBlock
        case end
    }

    private let maximumLineBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// The kept start of an over-long line whose rest is being skipped.
    private var truncated: [UInt8]?

    init(maximumLineBytes: Int) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// The next line; when `wait` is false and no whole line is buffered or readable now,
    /// `.wouldBlock` instead of waiting.
    func next(wait: Bool) -> Next {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[start..<newline])
                start = newline + 1
                if let kept = truncated {
                    line = kept
                    truncated = nil
                }
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return .line(Self.text(line, limit: maximumLineBytes))
            }
            // No newline buffered: keep the buffer bounded for an over-long line.
            if buffer.count - start > maximumLineBytes {
                if truncated == nil { truncated = Array(buffer[start..<(start + maximumLineBytes)]) }
                buffer.removeAll(keepingCapacity: true)
                start = 0
            }
            if atEnd {
                if let kept = truncated {
                    truncated = nil
                    return .line(Self.text(kept, limit: maximumLineBytes))
                }
                guard start < buffer.count else { return .end }
                let line = Array(buffer[start...])
                start = buffer.count
                return .line(Self.text(line, limit: maximumLineBytes))
            }
            if !wait && !Self.readable() { return .wouldBlock }
            fill()
        }
    }

    private static func text(_ bytes: [UInt8], limit: Int) -> String {
        String(decoding: bytes.prefix(limit), as: UTF8.self)
    }

    /// Whether standard input has data (or end of file) now.
    private static func readable() -> Bool {
        var descriptor = pollfd(fd: CommandContext.current.standardInput, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    private func fill() {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(CommandContext.current.standardInput, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return
            }
            if count < 0 && errno == EINTR { continue }
            atEnd = true
            return
        }
    }
}
