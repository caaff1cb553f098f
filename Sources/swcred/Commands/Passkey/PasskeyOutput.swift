import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredStore

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
