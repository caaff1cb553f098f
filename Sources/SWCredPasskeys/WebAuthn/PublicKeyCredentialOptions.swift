public import SWCredCore

/// A `PublicKeyCredentialDescriptorJSON`: `{"id","type","transports"?}`.
public struct PublicKeyCredentialDescriptor: Sendable, Hashable {
    /// The credential ID.
    public var id: [UInt8]
    /// `public-key` (descriptors of other types are ignored, as WebAuthn says).
    public var type: String
}

/// `PublicKeyCredentialCreationOptionsJSON` (WebAuthn Level 3 §5.1.? `parseCreationOptionsFromJSON`).
public struct PublicKeyCredentialCreationOptions: Sendable, Hashable {
    /// `rp.id`, canonical; `nil` when absent (a browser then uses its origin's host).
    public var rpID: String?
    /// `rp.name`.
    public var rpName: String
    /// `user.id`, 1–64 bytes.
    public var userID: [UInt8]
    /// `user.name`.
    public var userName: String
    /// `user.displayName`.
    public var userDisplayName: String
    /// The challenge (``PasskeyLimits/challengeBytes``).
    public var challenge: [UInt8]
    /// The `alg` of every `public-key` entry of `pubKeyCredParams`, in order.
    public var algorithms: [Int]
    /// `excludeCredentials` of type `public-key`.
    public var excludeCredentials: [PublicKeyCredentialDescriptor]
    /// `authenticatorSelection.userVerification` (`preferred` when absent or unknown).
    public var userVerification: String
    /// `attestation` (`none` when absent).
    public var attestation: String
    /// `extensions.credProps` was asked for.
    public var credPropsRequested: Bool

    /// Reads the JSON form.
    /// - Throws: `malformedInput` (65) when the bytes are not JSON; `passkeyInvalidOptions`
    ///   (TypeError, 50) when a member is missing, of the wrong type or out of range.
    public init(json bytes: [UInt8], asApp: Bool = false) throws(SWCredError) {
        try self.init(value: try WebAuthnJSON.parse(bytes), asApp: asApp)
    }

    /// Reads the options from an already parsed JSON value (a batch line's `options` member).
    package init(value: JSONValue, asApp: Bool = false) throws(SWCredError) {
        let reader = try OptionsReader(value, asApp: asApp)
        let rp = try reader.object(reader.root, "rp")
        if let id = rp["id"] {
            guard let text = id.stringValue, let canonical = RelyingPartyID.canonical(text) else {
                throw reader.invalid("rp.id is not a valid domain")
            }
            rpID = canonical
        } else {
            rpID = nil
        }
        rpName = try reader.string(rp, "rp.name", key: "name")
        let user = try reader.object(reader.root, "user")
        userID = try reader.bytes(user, "user.id", key: "id", range: 1...PasskeyItemLimits.userHandle)
        userName = try reader.string(user, "user.name", key: "name")
        userDisplayName = try reader.string(user, "user.displayName", key: "displayName")
        challenge = try reader.bytes(reader.root, "challenge", key: "challenge", range: PasskeyLimits.challengeBytes)
        guard let params = reader.root["pubKeyCredParams"]?.arrayValue else {
            throw reader.invalid("pubKeyCredParams must be an array")
        }
        var algorithms: [Int] = []
        for param in params {
            guard let object = param.objectValue, let type = object["type"]?.stringValue,
                let alg = object["alg"]?.numberValue,
                alg == alg.rounded(), abs(alg) < 1e9
            else { throw reader.invalid("each pubKeyCredParams entry needs a type and an integer alg") }
            if type == "public-key" { algorithms.append(Int(alg)) }
        }
        self.algorithms = algorithms
        excludeCredentials = try reader.descriptors("excludeCredentials")
        let selection = try reader.optionalObject(reader.root, "authenticatorSelection")
        userVerification =
            selection?["userVerification"]?.stringValue.flatMap(OptionsReader.userVerification) ?? "preferred"
        attestation = reader.root["attestation"]?.stringValue ?? "none"
        let extensions = try reader.optionalObject(reader.root, "extensions")
        credPropsRequested = extensions?["credProps"]?.boolValue == true
        try reader.checkTimeout()
    }

    /// Whether ES256 (-7) may be used: it is listed, or the list is empty (WebAuthn §5.1.3 step 10:
    /// an empty list means ES256 and RS256).
    var allowsES256: Bool { algorithms.isEmpty || algorithms.contains(-7) }
}

/// `PublicKeyCredentialRequestOptionsJSON`.
public struct PublicKeyCredentialRequestOptions: Sendable, Hashable {
    /// The challenge.
    public var challenge: [UInt8]
    /// `rpId`, canonical; `nil` when absent.
    public var rpID: String?
    /// `allowCredentials` of type `public-key`; empty means any discoverable passkey.
    public var allowCredentials: [PublicKeyCredentialDescriptor]
    /// `userVerification` (`preferred` when absent or unknown).
    public var userVerification: String

    /// Reads the JSON form.
    /// - Throws: as ``PublicKeyCredentialCreationOptions/init(json:asApp:)``.
    public init(json bytes: [UInt8], asApp: Bool = false) throws(SWCredError) {
        try self.init(value: try WebAuthnJSON.parse(bytes), asApp: asApp)
    }

    /// Reads the options from an already parsed JSON value.
    package init(value: JSONValue, asApp: Bool = false) throws(SWCredError) {
        let reader = try OptionsReader(value, asApp: asApp)
        challenge = try reader.bytes(reader.root, "challenge", key: "challenge", range: PasskeyLimits.challengeBytes)
        if let id = reader.root["rpId"] {
            guard let text = id.stringValue, let canonical = RelyingPartyID.canonical(text) else {
                throw reader.invalid("rpId is not a valid domain")
            }
            rpID = canonical
        } else {
            rpID = nil
        }
        allowCredentials = try reader.descriptors("allowCredentials")
        userVerification =
            reader.root["userVerification"]?.stringValue.flatMap(OptionsReader.userVerification) ?? "preferred"
        try reader.checkTimeout()
    }
}

/// Limits of the option forms (PK-5 Decision).
public enum PasskeyLimits {
    /// Challenge bytes: at least 16 (WebAuthn §13.4.3 asks for at least 16 random bytes), at most 1024.
    public static let challengeBytes = 16...1024
    /// Entries of `excludeCredentials` / `allowCredentials`.
    public static let maxDescriptors = 64
}

enum PasskeyItemLimits {
    static let userHandle = 64
    static let credentialID = 1023
}

/// Typed access to the parsed options object, failing with TypeError.
struct OptionsReader {
    let root: JSONObject
    let asApp: Bool

    init(_ value: JSONValue, asApp: Bool) throws(SWCredError) {
        self.asApp = asApp
        guard let root = value.objectValue else {
            self.root = JSONObject()
            throw invalid("the options must be a JSON object")
        }
        self.root = root
    }

    func invalid(_ message: String) -> SWCredError {
        PasskeyFailure.invalidOptions.error(message, asApp: asApp)
    }

    func object(_ parent: JSONObject, _ key: String) throws(SWCredError) -> JSONObject {
        guard let object = parent[key]?.objectValue else { throw invalid("\(key) must be an object") }
        return object
    }

    func optionalObject(_ parent: JSONObject, _ key: String) throws(SWCredError) -> JSONObject? {
        guard let value = parent[key], value != .null else { return nil }
        guard let object = value.objectValue else { throw invalid("\(key) must be an object") }
        return object
    }

    func string(_ parent: JSONObject, _ name: String, key: String) throws(SWCredError) -> String {
        guard let text = parent[key]?.stringValue else { throw invalid("\(name) must be a string") }
        guard text.utf8.count <= 512 else { throw invalid("\(name) is longer than 512 bytes") }
        return text
    }

    func bytes(_ parent: JSONObject, _ name: String, key: String, range: ClosedRange<Int>) throws(SWCredError)
        -> [UInt8]
    {
        guard let text = parent[key]?.stringValue else { throw invalid("\(name) must be a base64url string") }
        guard let decoded = Base64URL.decode(text) else { throw invalid("\(name) is not base64url") }
        guard range.contains(decoded.count) else {
            throw invalid("\(name) is \(decoded.count) bytes; it must be \(range.lowerBound)-\(range.upperBound)")
        }
        return decoded
    }

    func descriptors(_ key: String) throws(SWCredError) -> [PublicKeyCredentialDescriptor] {
        guard let value = root[key], value != .null else { return [] }
        guard let list = value.arrayValue else { throw invalid("\(key) must be an array") }
        guard list.count <= PasskeyLimits.maxDescriptors else {
            throw invalid("\(key) has \(list.count) entries; the limit is \(PasskeyLimits.maxDescriptors)")
        }
        var result: [PublicKeyCredentialDescriptor] = []
        for entry in list {
            guard let object = entry.objectValue, let type = object["type"]?.stringValue else {
                throw invalid("each \(key) entry needs a type and an id")
            }
            let id = try bytes(object, "\(key)[].id", key: "id", range: 1...PasskeyItemLimits.credentialID)
            if type == "public-key" { result.append(PublicKeyCredentialDescriptor(id: id, type: type)) }
        }
        return result
    }

    func checkTimeout() throws(SWCredError) {
        guard let value = root["timeout"], value != .null else { return }
        guard let number = value.numberValue, number >= 0 else {
            throw invalid("timeout must be a non-negative number")
        }
    }

    static func userVerification(_ value: String) -> String? {
        ["required", "preferred", "discouraged"].contains(value) ? value : nil
    }
}
