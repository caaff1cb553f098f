package import SWCredCore
package import SWCredKit

/// One request line of a batch (`swcred batch`), typed: the Shared Web Credentials calls and the
/// passkey ceremonies an app makes, each with that line's simulated user.
///
/// ```
/// {"id": 1, "op": "request", "domain": "tacos.example", "account": null, "pick": "first"}
/// {"id": 2, "op": "add", "domain": "tacos.example", "account": "bob", "password": "…", "user": "allow"}
/// {"id": 3, "op": "add", "domain": "tacos.example", "account": "bob", "delete": true}
/// {"id": 4, "op": "add", "domain": "tacos.example", "account": "eve", "generate": true}
/// {"id": 5, "op": "passkey-register", "options": {…CreationOptionsJSON…}, "user": "allow"}
/// {"id": 6, "op": "passkey-assert", "options": {…RequestOptionsJSON…}, "pick": "first"}
/// ```
package enum BatchOperation: Sendable {
    /// The password of an `add` line.
    package enum Password: Sendable, Hashable {
        /// `"password": "…"`.
        case given(String)
        /// `"generate": true`: a new `xxx-xxx-xxx-xxx` password (SWC-8.1).
        case generate
        /// `"delete": true`: the nil-password call (SWC-6.1).
        case delete
    }

    /// `SecRequestSharedWebCredential` (SWC-7); the picker answered by `pick`.
    case request(domain: String?, account: String?, pick: SWCPolicyResponder.PickPolicy)
    /// `SecAddSharedWebCredential` (SWC-6); every prompt answered `user`.
    case add(domain: String?, account: String, password: Password, user: SWCPromptAnswer)
    /// A passkey registration as the app.
    case passkeyRegister(PublicKeyCredentialCreationOptions, user: PasskeyUser)
    /// A passkey assertion as the app.
    case passkeyAssert(PublicKeyCredentialRequestOptions, user: PasskeyUser)

}

/// A decoded request line: its `id` and `op`, and the operation or the reason the line cannot run.
package struct BatchLine: Sendable {
    package var id: BatchRequestID?
    package var op: String
    /// The line's number in the input, from 1.
    package var number: Int
    package var operation: Result<BatchOperation, SWCredError>

    /// Reads a line with the strict JSON reader, duplicate keys refused (a key given twice would
    /// leave which account or password is meant to the reader's whim). `null` is the same as an
    /// absent member; unknown members are ignored. Messages never quote the line, which may hold a
    /// password.
    /// - Throws: `malformedInput` when the line is not a request object with an `op` (the result
    ///   then has no `id`); a line whose operation is wrong decodes with a failed ``operation``.
    package static func decode(_ text: String, number: Int, maximumLineBytes: Int) throws(SWCredError) -> BatchLine {
        let notARequest = SWCredError(
            .malformedInput, "line \(number) is not a batch request object ({\"op\": \"request\"|\"add\", …})")
        let limit = 4 * maximumLineBytes  // the reader bounds the line; U+FFFD may grow it
        let reader = JSONReader(limits: .init(maxBytes: limit, maxStringBytes: limit), duplicateKeys: .refuse)
        // A line may start with a UTF-8 byte-order mark, which Foundation's reader skipped.
        let bom = text.utf8.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let value: JSONValue
        do throws(JSONReader.Failure) {
            value = try reader.read(Array(text.utf8.dropFirst(bom))).value
        } catch {
            guard case .duplicateKey(let key) = error.kind else { throw notARequest }
            let inside = error.containerPath.isEmpty ? "" : " in \(error.containerPath.prefix(128))"
            throw SWCredError(
                .malformedInput, "line \(number): the key \"\(key.prefix(64))\" appears more than once\(inside)")
        }
        guard let object = value.objectValue else { throw notARequest }
        func member<T>(_ key: String, _ extract: (JSONValue) -> T?) throws(SWCredError) -> T? {
            try object.optionalMember(key, extract) { _ in notARequest }
        }
        let id = try member("id") { $0.numberValue.map(BatchRequestID.number) ?? $0.stringValue.map(BatchRequestID.string) }
        guard let op = try member("op", \.stringValue) else { throw notARequest }
        let fields = Fields(
            domain: try member("domain", \.stringValue), account: try member("account", \.stringValue),
            pick: try member("pick", \.stringValue), password: try member("password", \.stringValue),
            delete: try member("delete", \.boolValue), generate: try member("generate", \.boolValue),
            user: try member("user", \.stringValue))
        let operation: Result<BatchOperation, SWCredError>
        do throws(SWCredError) {
            operation = .success(try fields.operation(op, line: number, text: text))
        } catch {
            operation = .failure(error)
        }
        return BatchLine(id: id, op: op, number: number, operation: operation)
    }

    /// The members every op reads.
    private struct Fields {
        var domain, account, pick, password: String?
        var delete, generate: Bool?
        var user: String?

        func operation(_ op: String, line: Int, text: String) throws(SWCredError) -> BatchOperation {
            switch op {
            case "request":
                return .request(domain: domain, account: account, pick: .init(pickOption: pick ?? "first"))
            case "add":
                guard let account else { throw SWCredError(.malformedInput, "line \(line): add needs \"account\"") }
                var chosen: [BatchOperation.Password] = []
                if let password { chosen.append(.given(password)) }
                if delete == true { chosen.append(.delete) }
                if generate == true { chosen.append(.generate) }
                guard chosen.count == 1, let chosenPassword = chosen.first else {
                    throw SWCredError(
                        .malformedInput,
                        "line \(line): add takes exactly one of \"password\", \"delete\": true, \"generate\": true")
                }
                return .add(
                    domain: domain, account: account, password: chosenPassword,
                    user: try SWCPromptAnswer(userOption: user ?? "allow"))
            case "passkey-register", "passkey-assert":
                // The line again, under the options reader's limits (depth 16, 8 KiB strings, 256 members).
                let parsed = try WebAuthnJSON.parse(Array(text.utf8))
                guard let options = parsed.objectValue?["options"], options.objectValue != nil else {
                    throw SWCredError(.malformedInput, "line \(line): \(op) needs an \"options\" object")
                }
                let user = self.user ?? "allow"
                guard user == "allow" || user == "cancel" else {
                    throw SWCredError(.malformedInput, "line \(line): \"user\" is allow or cancel for passkeys")
                }
                let passkeyUser = PasskeyUser(cancels: user == "cancel", pick: pick ?? "first")
                if op == "passkey-register" {
                    return .passkeyRegister(try PublicKeyCredentialCreationOptions(value: options, asApp: true), user: passkeyUser)
                }
                return .passkeyAssert(try PublicKeyCredentialRequestOptions(value: options, asApp: true), user: passkeyUser)
            default:
                throw SWCredError(.malformedInput, "line \(line): unknown op \"\(op)\" (request or add)")
            }
        }
    }
}
