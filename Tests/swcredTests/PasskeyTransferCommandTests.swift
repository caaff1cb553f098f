import Foundation
import Testing

/// A private home for `swcred passkey export` and `import`, with a browser origin, an app and
/// offline sites, and helpers to read the documents.
private struct TransferBox {
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

private func b64url(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

private func fromB64url(_ text: String) -> [UInt8]? {
    var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while standard.count % 4 != 0 { standard += "=" }
    return Data(base64Encoded: standard).map(Array.init)
}

private func jsonAny(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

private func jsonText(_ value: Any) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
}

/// The sign count an assertion's authenticator data carries (bytes 33..<37, big-endian).
private func signCount(of credential: [String: Any]) -> UInt32? {
    guard let response = credential["response"] as? [String: Any], let text = response["authenticatorData"] as? String,
        let data = fromB64url(text), data.count >= 37
    else { return nil }
    return data[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
}

/// Runs the relying-party verifier script (py_webauthn).
private enum Judge {
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

@Suite("swcred passkey export and import (cli.md Browser tests)")
struct PasskeyTransferCommandTests {
    @Test("cli Browser tests: register, export to playwright and cdp in exact shapes, import into a fresh store at N, assert N+1; py_webauthn accepts N+1 and rejects a repeat")
    func handOver() async throws {
        let a = try TransferBox()
        let b = try TransferBox()
        let c = try TransferBox()
        defer { [a, b, c].forEach { $0.cleanUp() } }
        let registered = try await a.register("alice")
        #expect(registered.status == 0, "\(registered.stderr)")
        let id = try #require(try registered.json()["id"] as? String)
        let idBytes = try #require(fromB64url(id))

        // Playwright storage state, -o created 0600.
        let pw = try await a.run(["passkey", "export", "--to", "playwright", "-o", a.path("pw.json"), "--format", "json"])
        #expect(pw.status == 0, "\(pw.stderr)")
        var validator = JSONSchemaValidator.repository
        #expect(try validator.validate(try pw.json(), against: "passkey-transfer") == [])
        let mode = try FileManager.default.attributesOfItem(atPath: a.path("pw.json"))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let state = try #require(try jsonAny(try a.read("pw.json")) as? [String: Any])
        #expect(Set(state.keys) == ["cookies", "origins", "credentials"])
        #expect((state["cookies"] as? [Any])?.isEmpty == true && (state["origins"] as? [Any])?.isEmpty == true)
        let credentials = try #require(state["credentials"] as? [[String: Any]])
        #expect(credentials.count == 1)
        let pwCredential = try #require(credentials.first)
        #expect(Set(pwCredential.keys) == ["id", "rpId", "userHandle", "privateKey", "publicKey", "signCount"])
        #expect(pwCredential["id"] as? String == id)
        #expect(pwCredential["rpId"] as? String == "example.com")
        #expect(pwCredential["userHandle"] as? String == b64url(Array("alice".utf8)))
        #expect(pwCredential["signCount"] as? Int == 0)
        let spki = try #require(pwCredential["publicKey"] as? String)
        let pkcs8 = try #require(pwCredential["privateKey"] as? String)
        for text in [spki, pkcs8, id] { #expect(!text.contains("=") && !text.contains("+") && !text.contains("/")) }
        // SPKI of id-ecPublicKey/prime256v1 with an uncompressed point; PKCS#8 version 0, same algorithm.
        #expect(fromB64url(spki)?.count == 91)
        #expect(fromB64url(spki)?.prefix(2) == [0x30, 0x59])
        #expect(fromB64url(pkcs8)?.prefix(7) == [0x30, 0x81, 0x87, 0x02, 0x01, 0x00, 0x30])

        // The same passkey as CDP WebAuthn.Credential, standard base64 with padding.
        let cdp = try await a.run(["passkey", "export", "--to", "cdp", "-o", a.path("cdp.json")])
        #expect(cdp.status == 0, "\(cdp.stderr)")
        #expect(cdp.stdout.isEmpty)
        let cdpList = try #require(try jsonAny(try a.read("cdp.json")) as? [[String: Any]])
        let cdpCredential = try #require(cdpList.first)
        #expect(cdpList.count == 1)
        #expect(Set(cdpCredential.keys) == [
            "credentialId", "isResidentCredential", "rpId", "privateKey", "userHandle", "signCount", "userName",
            "userDisplayName", "backupEligibility", "backupState",
        ])
        #expect(cdpCredential["credentialId"] as? String == Data(idBytes).base64EncodedString())
        #expect((cdpCredential["credentialId"] as? String)?.hasSuffix("=") == true)  // 20 bytes: padded
        #expect(cdpCredential["userHandle"] as? String == Data("alice".utf8).base64EncodedString())
        #expect(cdpCredential["isResidentCredential"] as? Bool == true)
        #expect(cdpCredential["backupEligibility"] as? Bool == true && cdpCredential["backupState"] as? Bool == true)
        #expect(cdpCredential["userName"] as? String == "alice" && cdpCredential["userDisplayName"] as? String == "Alice")
        #expect(cdpCredential["signCount"] as? Int == 0)
        #expect((cdpCredential["privateKey"] as? String).flatMap { Data(base64Encoded: $0) }.map(Array.init) == fromB64url(pkcs8))

        // --rp-id selects; no passkey matches: an empty document, exit 0.
        let selected = try await a.run(["passkey", "export", "--to", "cdp", "--rp-id", "EXAMPLE.com"])
        #expect(selected.status == 0 && selected.stdout.contains(#""credentialId""#), "\(selected.stderr)")
        let none = try await a.run(["passkey", "export", "--to", "cdp", "--rp-id", "other.example"])
        #expect(none.status == 0 && none.stdout == "[]\n", "\(none.stderr)")
        let nonePW = try await a.run(["passkey", "export", "--to", "playwright", "--rp-id", "other.example"])
        #expect(nonePW.stdout == "{\"cookies\":[],\"origins\":[],\"credentials\":[]}\n")

        // Never overwritten without --force (74); with it, replaced and still 0600.
        let again = try await a.run(["passkey", "export", "--to", "playwright", "-o", a.path("pw.json")])
        #expect(again.status == 74, "\(again.stderr)")
        let forced = try await a.run(["passkey", "export", "--to", "playwright", "-o", a.path("pw.json"), "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try a.read("pw.json").contains(spki))

        // swcred's own assertion at count 0 reports 0, and py_webauthn takes the exported key.
        let (ownResult, own) = try await a.assert()
        #expect(ownResult.status == 0, "\(ownResult.stderr)")
        #expect(signCount(of: own) == 0)

        // A browser used it up to 41: the storage state comes back at 41 into a fresh store.
        let used = try a.read("pw.json").replacingOccurrences(of: #""signCount":0"#, with: #""signCount":41"#)
        try b.write("used.json", used)
        let imported = try await b.run(["passkey", "import", b.path("used.json"), "--from", "playwright", "--format", "json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let summary = try imported.json()
        #expect(try validator.validate(summary, against: "passkey-transfer") == [])
        #expect(summary["from"] as? String == "playwright" && summary["passkeys"] as? Int == 1)
        #expect(summary["added"] as? Int == 1 && summary["updated"] as? Int == 0 && summary["unchanged"] as? Int == 0)
        let (assertedResult, asserted) = try await b.assert()
        #expect(assertedResult.status == 0, "\(assertedResult.stderr)")
        #expect(asserted["id"] as? String == id)
        #expect(signCount(of: asserted) == 42)
        let (_, second) = try await b.assert()
        #expect(signCount(of: second) == 43)
        let reexport = try await b.run(["passkey", "export", "--to", "cdp"])
        #expect(reexport.status == 0, "\(reexport.stderr)")
        #expect(reexport.stdout.contains(#""signCount":43"#))

        // The CDP document at 7 into another fresh store: 8 next.
        let cdpUsed = try a.read("cdp.json").replacingOccurrences(of: #""signCount":0"#, with: #""signCount":7"#)
        let cdpImported = try await c.run(["passkey", "import", "-", "--from", "cdp"], stdin: cdpUsed)
        #expect(cdpImported.status == 0, "\(cdpImported.stderr)")
        #expect(cdpImported.stdout.hasPrefix("imported 1 passkeys (cdp): 1 added, 0 updated, 0 unchanged"))
        let listed = try await c.run(["passkey", "list", "--format", "json"])
        let names = (try listed.json()["passkeys"] as? [[String: Any]])?.compactMap { $0["userName"] as? String }
        #expect(names == ["alice"])
        let (_, fromCDP) = try await c.assert()
        #expect(signCount(of: fromCDP) == 8)

        if Judge.present {
            let zero = try Judge.verify(own, spki: spki, storedCount: 0)
            #expect(zero.status == 0, "py_webauthn at 0: \(zero.stderr)")
            let next = try Judge.verify(asserted, spki: spki, storedCount: 41)
            #expect(next.status == 0, "py_webauthn at 41 -> 42: \(next.stderr)")
            #expect((try? next.json())?["signCount"] as? Int == 42)
            // The judge can say no: a count that does not go up is a cloned authenticator to it.
            let replay = try Judge.verify(asserted, spki: spki, storedCount: 42)
            #expect(replay.status == 1, "py_webauthn must reject 42 after 42: \(replay.stderr)")
            let cdpNext = try Judge.verify(fromCDP, spki: spki, storedCount: 7)
            #expect(cdpNext.status == 0, "py_webauthn at 7 -> 8: \(cdpNext.stderr)")
        }
    }

    @Test("cli Browser tests: a stale document never rolls a count back; a newer one updates; an app imports under its approved webcredentials entry, another RP ID is 11")
    func staleAndApp() async throws {
        let a = try TransferBox()
        let b = try TransferBox()
        defer { [a, b].forEach { $0.cleanUp() } }
        #expect(try await a.register("alice").status == 0)
        let state = try await a.run(["passkey", "export", "--to", "playwright"])
        #expect(state.status == 0, "\(state.stderr)")
        func at(_ n: Int) -> String { state.stdout.replacingOccurrences(of: #""signCount":0"#, with: #""signCount":\#(n)"#) }
        #expect(try await b.run(["passkey", "import", "-", "--from", "playwright"], stdin: at(41)).status == 0)
        let stale = try await b.run(["passkey", "import", "-", "--from", "playwright", "--format", "json"], stdin: at(10))
        #expect(stale.status == 0, "\(stale.stderr)")
        #expect(try stale.json()["unchanged"] as? Int == 1)
        #expect(try await b.run(["passkey", "export", "--to", "cdp"]).stdout.contains(#""signCount":41"#))
        let newer = try await b.run(["passkey", "import", "-", "--from", "playwright", "--format", "json"], stdin: at(50))
        #expect(try newer.json()["updated"] as? Int == 1)
        let (_, credential) = try await b.assert()
        #expect(signCount(of: credential) == 51)

        // As the app: example.com is approved; other.example is not in its entitlements (11).
        let app = try TransferBox()
        defer { app.cleanUp() }
        let asApp = try await app.run(["passkey", "import", "-", "--from", "playwright", "--format", "json"] + app.app, stdin: at(3))
        #expect(asApp.status == 0, "\(asApp.stderr)")
        #expect(try asApp.json()["added"] as? Int == 1)
        // (The app's association records are refreshed from --aasa-dir first, as for register, so
        // the store's generation may move; its passkeys do not.)
        let before = try await app.run(["passkey", "export", "--to", "cdp"])
        let other = at(3).replacingOccurrences(of: #""rpId":"example.com""#, with: #""rpId":"other.example""#)
        let refused = try await app.run(["passkey", "import", "-", "--from", "playwright"] + app.app, stdin: other)
        #expect(refused.status == 11, "\(refused.stderr)")
        #expect(try await app.run(["passkey", "export", "--to", "cdp"]).stdout == before.stdout)
        #expect(before.stdout.contains(#""signCount":3"#))
    }

    @Test("cli Browser tests: hostile documents exit 65, 50 or 66 and leave the store's bytes as they were")
    func hostileDocuments() async throws {
        let a = try TransferBox()
        let b = try TransferBox()
        defer { [a, b].forEach { $0.cleanUp() } }
        #expect(try await a.register("alice").status == 0)
        #expect(try await a.register("bob").status == 0)
        let exported = try await a.run(["passkey", "export", "--to", "playwright"])
        let state = try #require(try jsonAny(exported.stdout) as? [String: Any])
        let both = try #require(state["credentials"] as? [[String: Any]])
        #expect(both.count == 2)
        let cdpExport = try await a.run(["passkey", "export", "--to", "cdp"])
        let cdpBoth = try #require(try jsonAny(cdpExport.stdout) as? [[String: Any]])
        // The store under attack holds alice.
        let aliceOnly = try jsonText(["cookies": [], "origins": [], "credentials": [both[0]]])
        #expect(try await b.run(["passkey", "import", "-", "--from", "playwright"], stdin: aliceOnly).status == 0)
        let before = b.storeBytes()
        #expect(!before.isEmpty)

        func playwright(_ edit: (inout [String: Any]) -> Void) throws -> String {
            var credential = both[1]
            edit(&credential)
            return try jsonText(["cookies": [], "origins": [], "credentials": [credential]])
        }
        func cdp(_ edit: (inout [String: Any]) -> Void) throws -> String {
            var credential = cdpBoth[1]
            edit(&credential)
            return try jsonText([credential])
        }
        // A P-384 key in PKCS#8 DER, made by openssl.
        let p384 = try CLI.runProgram(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["sh", "-c", "openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -outform DER | base64 -w0"], stdin: "")
        let p384Key = b64url(Array(Data(base64Encoded: p384.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? Data()))
        let otherSPKI = try #require(both[0]["publicKey"] as? String)
        var deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        deep = #"{"cookies":\#(deep),"origins":[],"credentials":[]}"#
        let huge = #"{"cookies":[],"origins":[{"origin":"https://example.com","localStorage":[{"name":"x","value":""#
            + String(repeating: "a", count: 1_100_000) + #""}]}],"credentials":[]}"#

        let cases: [(String, String, String, Int32, [String])] = [
            ("not JSON", "playwright", "{\"credentials\":[", 65, []),
            ("an array as storage state", "playwright", "[]", 65, []),
            ("credentials an object", "playwright", #"{"cookies":[],"origins":[],"credentials":{}}"#, 65, []),
            ("a repeated member", "playwright", #"{"credentials":[],"credentials":[]}"#, 65, []),
            ("signCount a string", "playwright", try playwright { $0["signCount"] = "1" }, 65, []),
            ("signCount over 2^32-1", "playwright", try playwright { $0["signCount"] = 4_294_967_296 }, 65, []),
            ("signCount -1 in playwright", "playwright", try playwright { $0["signCount"] = -1 }, 65, []),
            ("signCount 1.5", "playwright", try playwright { $0["signCount"] = 1.5 }, 65, []),
            ("id a number", "playwright", try playwright { $0["id"] = 7 }, 65, []),
            ("a 65-byte user handle", "playwright", try playwright { $0["userHandle"] = b64url(Array(repeating: 1, count: 65)) }, 65, []),
            ("a 2000-byte credential ID", "playwright", try playwright { $0["id"] = b64url(Array(repeating: 2, count: 2000)) }, 65, []),
            ("a huge user handle string", "playwright", try playwright { $0["userHandle"] = String(repeating: "A", count: 500_000) }, 65, []),
            ("userHandle standard base64", "playwright", try playwright { $0["userHandle"] = "+/+/" }, 65, []),
            ("a P-384 key", "playwright", try playwright { $0["privateKey"] = p384Key }, 65, []),
            ("a private key that is not DER", "playwright", try playwright { $0["privateKey"] = b64url(Array(repeating: 7, count: 32)) }, 65, []),
            ("a public key of another passkey", "playwright", try playwright { $0["publicKey"] = otherSPKI }, 65, []),
            ("no publicKey", "playwright", try playwright { $0["publicKey"] = nil }, 65, []),
            ("an rpId that is no domain", "playwright", try playwright { $0["rpId"] = "https://example.com" }, 65, []),
            ("deep nesting", "playwright", deep, 65, []),
            ("over 1 MiB", "playwright", huge, 65, []),
            ("one bad credential among good ones", "playwright",
             try jsonText(["cookies": [], "origins": [], "credentials": [both[1], both[0].merging(["signCount": "x"]) { $1 }]]), 65, []),
            ("cdp: base64url ID", "cdp", try cdp { $0["credentialId"] = both[1]["id"] }, 65, []),
            ("cdp: isResidentCredential false", "cdp", try cdp { $0["isResidentCredential"] = false }, 65, []),
            ("cdp: no userHandle", "cdp", try cdp { $0["userHandle"] = nil }, 65, []),
            ("cdp: userName a number", "cdp", try cdp { $0["userName"] = 5 }, 65, []),
            ("cdp: an object, not an array", "cdp", try jsonText(cdpBoth[1]), 65, []),
            ("an RP ID the origin may not use", "playwright",
             try playwright { $0["rpId"] = "other.example" }, 50, ["--origin", "https://example.com"]),
            ("--origin not https", "playwright", try playwright { _ = $0 }, 50, ["--origin", "http://example.com"]),
            ("--origin and app options", "playwright", try playwright { _ = $0 }, 50,
             ["--origin", "https://example.com", "--app-id", TransferBox.appID]),
        ]
        for (label, format, document, expected, extra) in cases {
            let result = try await b.run(["passkey", "import", "-", "--from", format] + extra, stdin: document)
            #expect(result.status == expected, "\(label): exit \(result.status), \(result.stderr.prefix(300))")
            #expect(b.storeBytes() == before, "\(label): the store changed")
        }
        let missing = try await b.run(["passkey", "import", b.path("nothing.json"), "--from", "cdp"])
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(b.storeBytes() == before)
        // The good document of the last case, alone, is accepted: the refusals were the documents'.
        let good = try await b.run(["passkey", "import", "-", "--from", "playwright"], stdin: try playwright { _ = $0 })
        #expect(good.status == 0, "\(good.stderr)")
        #expect(b.storeBytes() != before)
    }

    @Test("cli Browser tests: export never prints private keys on a terminal (29); --to is checked (64)",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func terminal() async throws {
        let home = try CLI.temporaryDirectory("swcred-pk-tty")
        defer { try? FileManager.default.removeItem(at: home) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qefc", "'\(CLI.binary.path)' passkey export --to cdp", "/dev/null"]
        process.environment = [
            "PATH": "/usr/bin:/bin", "HOME": home.path, "TERM": "xterm", "NO_COLOR": "1",
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 29, "\(text)")
        #expect(text.contains("terminal"))
        let bad = try await CLI.run(["passkey", "export", "--to", "json"], home: home)
        #expect(bad.status == 64)
    }
}
