import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredStore

/// Prints passkey errors with their WebAuthn name (`"name"` in JSON) and returns the exit code.
func reportPasskeyError(_ error: SWCredError, console: Console) -> ExitStatus {
    if console.format == .json, let failure = PasskeyFailure(error) {
        // `{"error":{"code","status","domain","message","name"}}`: the error document plus the WebAuthn name.
        console.err(Console.encode(ErrorDocument(error: .init(error, name: failure.webAuthnName)), pretty: false))
    } else {
        console.report(error)
    }
    return ExitStatus(error.code)
}

/// `{"schema","credential":{…}}` for `--format json`; an Android app's ceremony adds
/// `"origins"`, the `android:apk-key-hash:` origins an RP server must accept (DAL-Q4).
struct PasskeyCredentialDocument<Credential: Encodable>: Encodable {
    let credential: Credential
    var origins: [String]? = nil
}

extension Console {
    /// One compact JSON object without the schema field (the WebAuthn response as a server takes
    /// it, a rule pattern in text output), keys sorted.
    static func encodePlain<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
