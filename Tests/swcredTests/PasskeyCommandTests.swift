import Foundation
import SWCredStore
import Testing

/// A private home with an app, offline sites and options files for `swcred passkey`.
private struct PasskeySandbox {
    static let appID = "ABCDE12345.com.example.shop"
    static let challenge = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"  // bytes 0..31
    static let assertChallenge = "_-7t7Ovq6ejn5uXk4-Lh4N_e3dzb2tnY19bV1NPS0dA"
    let home: URL
    let sites: URL
    let entitlements: String

    init(domains: [String] = ["webcredentials:example.com"], listing: [String] = ["example.com"]) throws {
        home = try CLI.temporaryDirectory("swcred-passkey")
        sites = home.appendingPathComponent("sites")
        for site in ["example.com", "other.example"] {
            let folder = sites.appendingPathComponent(site).appendingPathComponent(".well-known")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let apps = listing.contains(site) ? #""\#(Self.appID)""# : #""ZZZZZ99999.com.other.app""#
            try Data(#"{"webcredentials":{"apps":[\#(apps)]}}"#.utf8).write(to: folder.appendingPathComponent("apple-app-site-association"))
        }
        let file = home.appendingPathComponent("app.entitlements.json")
        let list = domains.map { "\"\($0)\"" }.joined(separator: ",")
        try Data(#"{"application-identifier":"\#(Self.appID)","get-task-allow":true,"com.apple.developer.associated-domains":[\#(list)]}"#.utf8)
            .write(to: file)
        entitlements = file.path
    }

    func run(_ arguments: [String], stdin: String? = nil) async throws -> CLI.Result {
        try await CLI.run(arguments, stdin: stdin, home: home)
    }

    var app: [String] { ["--entitlements", entitlements, "--aasa-dir", sites.path] }
    var appOnly: [String] { ["--entitlements", entitlements] }

    /// Writes an options file and returns its path.
    func options(_ name: String, _ json: String) throws -> String {
        let url = home.appendingPathComponent(name)
        try Data(json.utf8).write(to: url)
        return url.path
    }

    func creation(rpID: String = "example.com", algs: String = #"[{"type":"public-key","alg":-7}]"#, exclude: String = "[]") throws -> String {
        try options("create.json", #"""
            {"rp":{"id":"\#(rpID)","name":"Example"},"user":{"id":"dXNlci0x","name":"alice@example.com","displayName":"Alice"},
             "challenge":"\#(Self.challenge)","pubKeyCredParams":\#(algs),"excludeCredentials":\#(exclude),
             "authenticatorSelection":{"residentKey":"required","userVerification":"required"},"attestation":"none"}
            """#)
    }

    func request(rpID: String = "example.com") throws -> String {
        try options("get.json", #"{"challenge":"\#(Self.assertChallenge)","rpId":"\#(rpID)","userVerification":"required"}"#)
    }

    func passkeys() async throws -> [[String: Any]] {
        let list = try await run(["passkey", "list", "--format", "json"])
        return (try list.json()["passkeys"] as? [[String: Any]]) ?? []
    }

    func cleanUp() { try? FileManager.default.removeItem(at: home) }
}

/// Runs the relying-party verifier script (py_webauthn / python-fido2).
private enum Verifier {
    static let script = CLI.repositoryRoot.appendingPathComponent("Tests/SWCredPasskeysTests/Support/verify_webauthn.py").path
    static func run(_ arguments: [String], stdin: String) throws -> CLI.Result {
        try CLI.runProgram(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script] + arguments, stdin: stdin)
    }

    static var librariesPresent: Bool {
        (try? run(["check"], stdin: ""))?.status == 0
    }
}

@Suite("swcred passkey register, assert, list, delete")
struct PasskeyCommandTests {
    @Test("cli passkey: an app registers and asserts; py_webauthn verifies both; list and delete; no key material anywhere")
    func ceremony() async throws {
        let box = try PasskeySandbox()
        defer { box.cleanUp() }
        let registered = try await box.run(["passkey", "register", try await box.creation()] + box.app)
        #expect(registered.status == 0, "\(registered.stderr)")
        let registration = try registered.json()
        #expect(registration["schema"] == nil)  // text mode: the response alone
        #expect(registration["type"] as? String == "public-key")
        let id = try #require(registration["id"] as? String)
        let asserted = try await box.run(["passkey", "assert", "-", "--format", "json"] + box.appOnly, stdin: try await String(contentsOfFile: try box.request(), encoding: .utf8))
        #expect(asserted.status == 0, "\(asserted.stderr)")
        let document = try asserted.json()
        #expect(document["schema"] as? String == "swcred/1")
        let credential = try #require(document["credential"] as? [String: Any])
        #expect(credential["id"] as? String == id)
        var validator = JSONSchemaValidator.repository
        #expect(try validator.validate(document, against: "passkey") == [])
        let listResult = try await box.run(["passkey", "list", "--format", "json"])
        #expect(listResult.status == 0, "\(listResult.stderr)")
        let listDocument = try listResult.json()
        #expect(try validator.validate(listDocument, against: "passkey") == [])

        if Verifier.librariesPresent {
            let reg = try Verifier.run(
                ["register", "webauthn", PasskeySandbox.challenge, "https://example.com", "example.com"], stdin: registered.stdout)
            #expect(reg.status == 0, "\(reg.stderr)")
            let key = try #require(try reg.json()["credentialPublicKey"] as? String)
            let assertion = String(decoding: try JSONSerialization.data(withJSONObject: credential), as: UTF8.self)
            let verified = try Verifier.run(
                ["assert", "webauthn", PasskeySandbox.assertChallenge, "https://example.com", "example.com", key], stdin: assertion)
            #expect(verified.status == 0, "\(verified.stderr)")
        }

        let listed = try await box.passkeys()
        #expect(listed.count == 1)
        #expect(listed.first?["credentialID"] as? String == id)
        #expect(listed.first?["userName"] as? String == "alice@example.com")
        #expect(listed.first?.keys.contains { $0.lowercased().contains("key") } == false)
        let deleted = try await box.run(["passkey", "delete", "example.com", id, "--format", "json"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try validator.validate(try deleted.json(), against: "passkey") == [])
        #expect(try await box.passkeys().isEmpty)
        let again = try await box.run(["passkey", "delete", "example.com", id])
        #expect(again.status == 44)
    }

    @Test("cli passkey delete: a credential ID that starts with '-' (base64url) is deleted, with options before or after it, never read as options")
    func dashedCredentialID() async throws {
        // One ID in 64 starts with '-': ArgumentParser read `-…h…` as a pack of short options with
        // -h in it, printed the help and exited 0 having deleted nothing (the ceremony test's
        // rare "stdout is not JSON"), and other such IDs as an unknown option (64).
        let box = try PasskeySandbox()
        defer { box.cleanUp() }
        #expect(try await box.run(["init"]).status == 0)
        let environment = ["HOME": box.home.path, "XDG_CONFIG_HOME": box.home.appendingPathComponent("config").path]
        let store = try KeychainStore.open(
            at: box.home.appendingPathComponent("data/swcred/keychain.swcred").path,
            keySource: .keyFile(path: try StorePaths.keyFilePath(environment: environment)),
            options: StoreOptions(stateDirectory: box.home.appendingPathComponent("library-state").path, warningHandler: { _ in }))
        let ids: [[UInt8]] = [[0xFA, 0x10] + Array(repeating: 0x21, count: 18), [0xF8] + Array(repeating: 0, count: 19), [0xFB, 0xE0] + Array(repeating: 7, count: 18)]
        try store.transaction { contents, now in
            for (index, id) in ids.enumerated() {
                _ = try contents.addPasskey(
                    PasskeyItem(
                        credentialID: id, rpID: "example.com", userHandle: [UInt8(index + 1)], userName: "user\(index)",
                        displayName: "User", privateKey: (0..<32).map { UInt8($0 + index + 1) }),
                    at: now)
            }
        }
        let encoded = ids.map { Data($0).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "") }
        #expect(encoded[0].hasPrefix("-h") && encoded[1].hasPrefix("-A") && encoded[2].hasPrefix("--"), "\(encoded)")
        #expect(try await box.passkeys().count == 3)

        let withHelpLetter = try await box.run(["passkey", "delete", "example.com", encoded[0], "--format", "json"])
        #expect(withHelpLetter.status == 0, "\(withHelpLetter.stderr)")
        #expect(try withHelpLetter.json()["operation"] as? String == "deleted")
        let optionsFirst = try await box.run(["passkey", "delete", "--format=json", "example.com", encoded[1]])
        #expect(optionsFirst.status == 0, "\(optionsFirst.stderr)")
        #expect(((try optionsFirst.json()["passkey"]) as? [String: Any])?["credentialID"] as? String == encoded[1])
        let doubleDash = try await box.run(["passkey", "delete", "example.com", encoded[2], "--lock-timeout", "5", "--format", "json"])
        #expect(doubleDash.status == 0, "\(doubleDash.stderr)")
        #expect(try await box.passkeys().isEmpty)
        // Once gone: no passkey (44), not the help; the same with an explicit terminator.
        let again = try await box.run(["passkey", "delete", "example.com", encoded[0]])
        #expect(again.status == 44 && !again.stdout.contains("USAGE"), "\(again.stdout)")
        let terminated = try await box.run(["passkey", "delete", "--format", "json", "--", "example.com", encoded[1]])
        #expect(terminated.status == 44, "\(terminated.stderr)")
        // A misspelt option is still refused (64), not taken as an ID.
        let misspelt = try await box.run(["passkey", "delete", "example.com", encoded[0], "--formt", "json"])
        #expect(misspelt.status == 64)
        // The help itself still works.
        let help = try await box.run(["passkey", "delete", "-h"])
        #expect(help.status == 0 && help.stdout.contains("USAGE"))
    }

    @Test("cli PK-1: every association failure exits 11 or 12 with Apple's text and creates nothing")
    func associationFailures() async throws {
        let cases: [(domains: [String], listing: [String], source: Bool, rpID: String, status: Int32)] = [
            (["webcredentials:other.example"], ["example.com"], true, "example.com", 11),  // entry missing
            (["webcredentials:example.com"], [], true, "example.com", 12),  // site file does not list the app
            (["webcredentials:example.com?mode=developer"], ["example.com"], true, "example.com", 11),  // mode-gated
            (["webcredentials:example.com"], ["example.com"], false, "example.com", 12),  // no record (not refreshed)
        ]
        for entry in cases {
            let box = try PasskeySandbox(domains: entry.domains, listing: entry.listing)
            defer { box.cleanUp() }
            let result = try await box.run(
                ["passkey", "register", try box.creation(rpID: entry.rpID), "--format", "json"] + (entry.source ? box.app : box.appOnly))
            #expect(result.status == entry.status, "\(entry.domains): \(result.stderr)")
            let error = try result.errorJSON()
            #expect(error["name"] as? String == "SecurityError")
            #expect(error["status"] as? Int == 1004)
            #expect(error["domain"] as? String == "com.apple.AuthenticationServices.AuthorizationError")
            #expect((error["message"] as? String)?.contains(
                "Application with identifier \(PasskeySandbox.appID) is not associated with domain example.com") == true)
            #expect(result.stdout.isEmpty)
            #expect(try await box.passkeys().isEmpty)
        }
    }

    @Test("cli PK-3: excludeCredentials exits 45 (InvalidStateError, 1006) and creates nothing; cancel 13; no passkey 44")
    func errors() async throws {
        let box = try PasskeySandbox()
        defer { box.cleanUp() }
        let none = try await box.run(["passkey", "assert", try await box.request(), "--format", "json"] + box.app)
        #expect(none.status == 44)
        #expect(try none.errorJSON()["name"] as? String == "NotAllowedError")
        let first = try await box.run(["passkey", "register", try await box.creation()] + box.appOnly)
        #expect(first.status == 0, "\(first.stderr)")
        let id = try #require(try first.json()["id"] as? String)
        let excluded = try await box.run(
            ["passkey", "register", try box.creation(exclude: #"[{"type":"public-key","id":"\#(id)"}]"#), "--format", "json"] + box.appOnly)
        #expect(excluded.status == 45)
        let error = try excluded.errorJSON()
        #expect(error["name"] as? String == "InvalidStateError")
        var validator = JSONSchemaValidator.repository
        let errorLine = try #require(excluded.stderr.split(separator: "\n").last)
        let errorDocument = try #require(try JSONSerialization.jsonObject(with: Data(errorLine.utf8)) as? [String: Any])
        #expect(try validator.validate(errorDocument, against: "error") == [])
        #expect(error["status"] as? Int == 1006)
        #expect(try await box.passkeys().map { $0["credentialID"] as? String } == [id])
        let canceled = try await box.run(["passkey", "register", try await box.creation(), "--user", "cancel"] + box.appOnly)
        #expect(canceled.status == 13)
        let pickCanceled = try await box.run(["passkey", "assert", try await box.request(), "--pick", "cancel"] + box.appOnly)
        #expect(pickCanceled.status == 13)
        let unknownUser = try await box.run(["passkey", "assert", try await box.request(), "--pick", "mallory"] + box.appOnly)
        #expect(unknownUser.status == 44)
        let picked = try await box.run(["passkey", "assert", try await box.request(), "--pick", "alice@example.com"] + box.appOnly)
        #expect(picked.status == 0, "\(picked.stderr)")
        #expect(try await box.passkeys().count == 1)
    }

    @Test("cli PK-5: unsupported algorithms and bad options exit 50; malformed JSON 65")
    func badOptions() async throws {
        let box = try PasskeySandbox()
        defer { box.cleanUp() }
        let rsa = try await box.run(
            ["passkey", "register", try box.creation(algs: #"[{"type":"public-key","alg":-257}]"#), "--format", "json"] + box.app)
        #expect(rsa.status == 50)
        #expect(try rsa.errorJSON()["name"] as? String == "NotSupportedError")
        let short = try await box.run(
            ["passkey", "assert", try box.options("short.json", #"{"challenge":"AAAA","rpId":"example.com"}"#)] + box.appOnly)
        #expect(short.status == 50)
        let malformed = try await box.run(["passkey", "register", try await box.options("bad.json", "{\"rp\":")] + box.appOnly)
        #expect(malformed.status == 65)
        #expect(try await box.passkeys().isEmpty)
    }

    @Test("cli PK-1: a browser origin may use its host or a registrable suffix; another site is SecurityError (50)")
    func browser() async throws {
        let box = try PasskeySandbox()
        defer { box.cleanUp() }
        let ok = try await box.run(["passkey", "register", try await box.creation(), "--origin", "https://login.example.com"])
        #expect(ok.status == 0, "\(ok.stderr)")
        let clientData = try #require(try ok.json()["response"] as? [String: Any])["clientDataJSON"] as? String
        #expect(clientData != nil)
        let other = try await box.run(["passkey", "register", try await box.creation(), "--origin", "https://example.org", "--format", "json"])
        #expect(other.status == 50)
        #expect(try other.errorJSON()["name"] as? String == "SecurityError")
        #expect(try other.errorJSON()["status"] == nil)
        let insecure = try await box.run(["passkey", "assert", try await box.request(), "--origin", "http://example.com"])
        #expect(insecure.status == 50)
        let both = try await box.run(["passkey", "assert", try await box.request(), "--origin", "https://example.com"] + box.appOnly)
        #expect(both.status == 64)
    }

    @Test("cli batch: passkey-register and passkey-assert lines run as the app; a failing line reports its exit and the batch goes on")
    func batch() async throws {
        let box = try PasskeySandbox()
        defer { box.cleanUp() }
        let create = try String(contentsOfFile: try box.creation(), encoding: .utf8).replacingOccurrences(of: "\n", with: " ")
        let get = try String(contentsOfFile: try box.request(), encoding: .utf8)
        let lines = [
            #"{"id":1,"op":"passkey-register","options":\#(create)}"#,
            #"{"id":2,"op":"passkey-assert","options":\#(get),"pick":"alice@example.com"}"#,
            #"{"id":3,"op":"passkey-register","options":\#(create),"user":"cancel"}"#,
            #"{"id":4,"op":"passkey-assert","options":{"challenge":"AAAA"}}"#,
        ].joined(separator: "\n") + "\n"
        let result = try await box.run(["batch"] + box.app, stdin: lines)
        var objects: [[String: Any]] = []
        for line in result.stdout.split(separator: "\n") {
            objects.append(try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]))
        }
        #expect(objects.map { $0["exit"] as? Int } == [0, 0, 13, 50], "\(result.stdout) \(result.stderr)")
        let registered = try #require(objects.first?["credential"] as? [String: Any])
        let asserted = try #require(objects[1]["credential"] as? [String: Any])
        #expect(registered["id"] as? String == asserted["id"] as? String)
        #expect(result.status == 13)
        #expect(try await box.passkeys().count == 1)
    }
}
