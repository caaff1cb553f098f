import ArgumentParser
import Foundation
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredPasswords

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

    func execute(_ console: Console) async throws -> Int32 {
        let (backend, swcApp) = try await SWCCommandSupport.makeBackend(
            storeOptions: storeOptions, app: app, source: source, console: console)
        var firstFailure: Int32 = 0
        var lineNumber = 0
        while let line = Self.readLine() {
            lineNumber += 1
            if line.allSatisfy(\.isWhitespace) { continue }
            let result: BatchResult
            do {
                let request = try BatchRequest.decode(line, number: lineNumber)
                result = await run(request, backend: backend, app: swcApp)
            } catch {
                result = BatchResult(id: nil, op: nil, exit: error.code.exitCode, error: error)
            }
            console.emitJSONLine(result)
            if result.exit != 0 && firstFailure == 0 { firstFailure = result.exit }
        }
        return firstFailure
    }

    private func run(_ request: BatchRequest, backend: StoreBackend, app swcApp: SWCApp) async -> BatchResult {
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
                    return BatchResult(request, exit: credentials.isEmpty ? 13 : 0, body: .request(body))
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
                return BatchResult(request, exit: report.cliExitCode, body: .add(AppAddResult(report: report)))
            case "passkey-register", "passkey-assert":
                return try await runPasskey(request, backend: backend, app: swcApp)
            default:
                throw SWCredError(.malformedInput, "line \(request.line): unknown op \"\(request.op)\" (request or add)")
            }
        } catch {
            return BatchResult(id: request.id, op: request.op, exit: error.code.exitCode, error: error)
        }
    }

    /// One line of stdin, without its newline; `nil` at end of input. Lines longer than the
    /// limit are consumed and returned truncated, so that decoding reports them as malformed.
    private static func readLine() -> String? {
        guard let line = Swift.readLine(strippingNewline: true) else { return nil }
        return line.utf8.count > maximumLineBytes ? String(line.utf8.prefix(maximumLineBytes)) ?? "" : line
    }
}

/// One request line.
struct BatchRequest: Decodable {
    var id: JSONScalar?
    var op: String
    var domain: String?
    var account: String?
    var pick: String?
    var password: String?
    var delete: Bool?
    var generate: Bool?
    var user: String?
    var line = 0
    /// The whole line (passkey ops read their `options` object from it).
    var text = ""

    private enum CodingKeys: String, CodingKey { case id, op, domain, account, pick, password, delete, generate, user }

    static func decode(_ text: String, number: Int) throws(SWCredError) -> BatchRequest {
        do {
            var request = try JSONDecoder().decode(BatchRequest.self, from: Data(text.utf8))
            request.line = number
            request.text = text
            return request
        } catch {
            // The decoder's message may quote the line, and the line may hold a password.
            throw SWCredError(.malformedInput, "line \(number) is not a batch request object ({\"op\": \"request\"|\"add\", …})")
        }
    }
}

/// A request's `id`, echoed as given: a string, a number or null.
enum JSONScalar: Codable, Sendable {
    case string(String), number(Double), null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let number = try? container.decode(Double.self) { self = .number(number) }
        else { self = .string(try container.decode(String.self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value):
            if value == value.rounded(), abs(value) < 1e15 { try container.encode(Int64(value)) } else { try container.encode(value) }
        case .null: try container.encodeNil()
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
