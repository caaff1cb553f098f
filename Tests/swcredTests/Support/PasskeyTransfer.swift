import Foundation

/// A private home (a temporary folder) for `swcred passkey export` and `import`, with a browser origin, an app and
/// offline sites, and helpers to read the documents.
struct TransferBox {
    static let appID = "ABCDE12345.com.example.shop"
    static let challenge = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"
    static let assertChallenge = "_-7t7Ovq6ejn5uXk4-Lh4N_e3dzb2tnY19bV1NPS0dA"
    static let browser = ["--origin", "https://example.com"]
    let home: URL

    init() throws {
        home = try CLI.temporaryDirectory("swcred-pk-transfer")
        let sites = home.appendingPathComponent("sites")
        for site in ["example.com", "other.example"] {
            let folder = sites.appendingPathComponent(site).appendingPathComponent(".well-known")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(#"{"webcredentials":{"apps":["\#(Self.appID)"]}}"#.utf8)
                .write(to: folder.appendingPathComponent("apple-app-site-association"))
        }
        try Data(
            #"{"application-identifier":"\#(Self.appID)","get-task-allow":true,"com.apple.developer.associated-domains":["webcredentials:example.com"]}"#
                .utf8
        ).write(to: home.appendingPathComponent("app.entitlements.json"))
    }

    var app: [String] {
        ["--entitlements", home.appendingPathComponent("app.entitlements.json").path, "--aasa-dir",
         home.appendingPathComponent("sites").path]
    }

    func run(_ arguments: [String], stdin: String? = nil) async throws -> CLI.Result {
        try await CLI.run(arguments, stdin: stdin, home: home)
    }

    func path(_ name: String) -> String { home.appendingPathComponent(name).path }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    func read(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }

    /// Registers `user` (its user handle is the name's bytes) as the browser at example.com.
    func register(_ user: String) async throws -> CLI.Result {
        let file = try write("create-\(user).json", #"""
            {"rp":{"id":"example.com","name":"Example"},"user":{"id":"\#(b64url(Array(user.utf8)))","name":"\#(user)","displayName":"\#(user.capitalized)"},
             "challenge":"\#(Self.challenge)","pubKeyCredParams":[{"type":"public-key","alg":-7}]}
            """#)
        return try await run(["passkey", "register", file] + Self.browser)
    }

    /// An assertion as the browser at example.com, JSON form; returns the credential.
    func assert(pick: String = "first") async throws -> (CLI.Result, [String: Any]) {
        let file = try write("get.json", #"{"challenge":"\#(Self.assertChallenge)","rpId":"example.com"}"#)
        let result = try await run(["passkey", "assert", file, "--pick", pick, "--format", "json"] + Self.browser)
        let credential = (try? result.json())?["credential"] as? [String: Any] ?? [:]
        return (result, credential)
    }

    /// The bytes of every store file under the home, for "unchanged" checks.
    func storeBytes() -> [UInt8] {
        guard let walker = FileManager.default.enumerator(atPath: home.path) else { return [] }
        var bytes: [UInt8] = []
        for case let name as String in walker where name.hasSuffix(".swcred") {
            bytes += Array(FileManager.default.contents(atPath: path(name)) ?? Data())
        }
        return bytes
    }

    func cleanUp() { try? FileManager.default.removeItem(at: home) }
}

func b64url(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

func fromB64url(_ text: String) -> [UInt8]? {
    var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while standard.count % 4 != 0 { standard += "=" }
    return Data(base64Encoded: standard).map(Array.init)
}

func jsonAny(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

func jsonText(_ value: Any) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
}

/// The sign count an assertion's authenticator data carries (bytes 33..<37, big-endian).
func signCount(of credential: [String: Any]) -> UInt32? {
    guard let response = credential["response"] as? [String: Any], let text = response["authenticatorData"] as? String,
        let data = fromB64url(text), data.count >= 37
    else { return nil }
    return data[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
}

/// Runs the relying-party verifier script (py_webauthn).
enum Judge {
    static let script = CLI.repositoryRoot.appendingPathComponent("Tests/SWCredPasskeysTests/Support/verify_webauthn.py").path
    static var present: Bool { (try? CLI.runProgram(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, "check"], stdin: ""))?.status == 0 }

    /// py_webauthn's verdict on an assertion, with the export's SPKI public key and the relying
    /// party's stored count.
    static func verify(_ credential: [String: Any], spki: String, storedCount: UInt32) throws -> CLI.Result {
        try CLI.runProgram(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", script, "assert", "webauthn", TransferBox.assertChallenge, "https://example.com", "example.com",
             "spki:" + spki, String(storedCount)],
            stdin: try jsonText(credential))
    }
}
