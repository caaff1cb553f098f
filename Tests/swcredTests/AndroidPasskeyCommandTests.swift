import Foundation
import Testing

/// A private home whose offline sites serve `assetlinks.json` files for `swcred passkey … --android-app`.
private struct AndroidPasskeySandbox {
    static let challenge = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"  // bytes 0..31
    static let assertChallenge = "_-7t7Ovq6ejn5uXk4-Lh4N_e3dzb2tnY19bV1NPS0dA"
    static let package = "com.example.shop"
    static let signingKey =
        "B4:1E:7A:90:3C:55:D2:08:6F:11:A3:C9:4E:72:0B:D6:95:28:E1:3F:7C:40:AA:5B:19:C6:83:2D:F0:64:9E:17"
    static let otherKey =
        "0A:1B:2C:3D:4E:5F:60:71:82:93:A4:B5:C6:D7:E8:F9:0A:1B:2C:3D:4E:5F:60:71:82:93:A4:B5:C6:D7:E8:F9"
    static var app: String { "\(package)=\(signingKey)" }

    let home: URL
    let sites: URL

    /// `files`: host → the body of its `/.well-known/assetlinks.json` (no entry: no file).
    init(_ files: [String: String]) throws {
        home = try CLI.temporaryDirectory("swcred-android-passkey")
        sites = home.appendingPathComponent("sites")
        try FileManager.default.createDirectory(at: sites, withIntermediateDirectories: true)
        for (host, body) in files {
            let folder = sites.appendingPathComponent(host).appendingPathComponent(".well-known")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(body.utf8).write(to: folder.appendingPathComponent("assetlinks.json"))
        }
    }

    /// A statement list granting `relations` (short names) to the package with `fingerprints`.
    static func list(_ relations: [String], fingerprints: [String] = [signingKey]) -> String {
        let relationList = relations.map { "\"delegate_permission/common.\($0)\"" }.joined(separator: ",")
        let prints = fingerprints.map { "\"\($0)\"" }.joined(separator: ",")
        return #"[{"relation":[\#(relationList)],"target":{"namespace":"android_app","package_name":"\#(package)","sha256_cert_fingerprints":[\#(prints)]}}]"#
    }

    static let both = list(["handle_all_urls", "get_login_creds"])

    func run(_ arguments: [String], stdin: String? = nil) async throws -> CLI.Result {
        try await CLI.run(arguments, stdin: stdin, home: home)
    }

    var android: [String] { ["--android-app", Self.app, "--aasa-dir", sites.path] }

    func options(_ name: String, _ json: String) throws -> String {
        let url = home.appendingPathComponent(name)
        try Data(json.utf8).write(to: url)
        return url.path
    }

    func creation(rpID: String = "example.com") throws -> String {
        try options("create.json", #"""
            {"rp":{"id":"\#(rpID)","name":"Example"},"user":{"id":"dXNlci0x","name":"alice@example.com","displayName":"Alice"},
             "challenge":"\#(Self.challenge)","pubKeyCredParams":[{"type":"public-key","alg":-7}],
             "authenticatorSelection":{"residentKey":"required","userVerification":"required"},"attestation":"none"}
            """#)
    }

    func request(rpID: String = "example.com") throws -> String {
        try options("get.json", #"{"challenge":"\#(Self.assertChallenge)","rpId":"\#(rpID)","userVerification":"required"}"#)
    }

    func passkeyCount() async throws -> Int {
        let list = try await run(["passkey", "list", "--format", "json"])
        return ((try? list.json()["passkeys"] as? [Any]) ?? nil)?.count ?? 0
    }

    func cleanUp() { try? FileManager.default.removeItem(at: home) }

    /// `android:apk-key-hash:` and the base64url (no padding) of the fingerprint's octets, computed
    /// here independently of swcred.
    static func apkKeyHash(_ fingerprint: String) -> String {
        let octets = fingerprint.split(separator: ":").compactMap { UInt8($0, radix: 16) }
        let base64 = Data(octets).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return "android:apk-key-hash:" + base64
    }
}

/// Runs the relying-party verifier script (py_webauthn / python-fido2).
private enum RelyingParty {
    static let script = CLI.repositoryRoot.appendingPathComponent("Tests/SWCredPasskeysTests/Support/verify_webauthn.py").path
    static func run(_ arguments: [String], stdin: String) throws -> CLI.Result {
        try CLI.runProgram(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script] + arguments, stdin: stdin)
    }

    static let librariesPresent: Bool = (try? run(["check"], stdin: ""))?.status == 0
}

@Suite("swcred passkey --android-app (DAL-Q4)")
struct AndroidPasskeyCommandTests {
    @Test(
        "DAL-Q4: an Android app listed for both relations registers and asserts with the android:apk-key-hash origin; the RP library accepts both; the origins are printed",
        arguments: ["webauthn", "fido2"])
    func ceremony(library: String) async throws {
        let box = try AndroidPasskeySandbox(["example.com": AndroidPasskeySandbox.both])
        defer { box.cleanUp() }
        let origin = AndroidPasskeySandbox.apkKeyHash(AndroidPasskeySandbox.signingKey)
        let registered = try await box.run(["passkey", "register", try box.creation()] + box.android)
        #expect(registered.status == 0, "\(registered.stderr)")
        let registration = try registered.json()
        #expect(registration["schema"] == nil)  // text mode: the response alone on stdout
        #expect(registered.stderr.contains(origin), "\(registered.stderr)")
        #expect(registered.stderr.contains("DAL-Q4"))
        let response = try #require(registration["response"] as? [String: Any])
        let clientData = try #require(
            (response["clientDataJSON"] as? String).flatMap { Data(base64URL: $0) })
        let client = try #require(try JSONSerialization.jsonObject(with: clientData) as? [String: Any])
        #expect(client["origin"] as? String == origin)
        #expect(client["type"] as? String == "webauthn.create")

        let asserted = try await box.run(["passkey", "assert", try box.request(), "--format", "json"] + box.android)
        #expect(asserted.status == 0, "\(asserted.stderr)")
        let document = try asserted.json()
        #expect(document["origins"] as? [String] == [origin])
        var validator = JSONSchemaValidator.repository
        #expect(try validator.validate(document, against: "passkey") == [])
        let credential = try #require(document["credential"] as? [String: Any])

        guard RelyingParty.librariesPresent else { return }
        let verified = try RelyingParty.run(
            ["register", library, AndroidPasskeySandbox.challenge, origin, "example.com"], stdin: registered.stdout)
        #expect(verified.status == 0, "\(verified.stderr)")
        let json = try verified.json()
        let key = try #require((json["credentialPublicKey"] ?? json["credentialData"]) as? String)
        let assertion = String(decoding: try JSONSerialization.data(withJSONObject: credential), as: UTF8.self)
        let accepted = try RelyingParty.run(
            ["assert", library, AndroidPasskeySandbox.assertChallenge, origin, "example.com", key], stdin: assertion)
        #expect(accepted.status == 0, "\(accepted.stderr)")
        // The same responses under the web origin are refused: the RP must list the app's origin.
        let web = try RelyingParty.run(
            ["assert", library, AndroidPasskeySandbox.assertChallenge, "https://example.com", "example.com", key],
            stdin: assertion)
        #expect(web.status == 1, "\(web.stderr)")
    }

    @Test("DAL-Q4: with a rotated key, the signing (first) fingerprint is the origin and every fingerprint's origin is printed")
    func rotatedKey() async throws {
        let box = try AndroidPasskeySandbox([
            "example.com": AndroidPasskeySandbox.list(
                ["handle_all_urls", "get_login_creds"], fingerprints: [AndroidPasskeySandbox.otherKey])
        ])
        defer { box.cleanUp() }
        let app = "\(AndroidPasskeySandbox.package)=\(AndroidPasskeySandbox.signingKey),\(AndroidPasskeySandbox.otherKey)"
        let result = try await box.run(
            ["passkey", "register", try box.creation(), "--android-app", app, "--aasa-dir", box.sites.path,
             "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try result.json()["origins"] as? [String] == [
                AndroidPasskeySandbox.apkKeyHash(AndroidPasskeySandbox.signingKey),
                AndroidPasskeySandbox.apkKeyHash(AndroidPasskeySandbox.otherKey),
            ])
    }

    @Test(
        "DAL-Q4: a list without handle_all_urls, or without get_login_creds, refuses the app (12) naming the relation; nothing is created",
        arguments: [("get_login_creds", "handle_all_urls"), ("handle_all_urls", "get_login_creds")])
    func missingRelation(listed: String, missing: String) async throws {
        let box = try AndroidPasskeySandbox(["example.com": AndroidPasskeySandbox.list([listed])])
        defer { box.cleanUp() }
        let result = try await box.run(["passkey", "register", try box.creation(), "--format", "json"] + box.android)
        #expect(result.status == 12, "\(result.stderr)")
        #expect(result.stderr.contains("SecurityError"))
        #expect(result.stderr.contains("delegate_permission/common.\(missing)"), "\(result.stderr)")
        #expect(result.stderr.contains("is listed for delegate_permission/common.\(listed)"), "\(result.stderr)")
        #expect(try await box.passkeyCount() == 0)
    }

    @Test("DAL-Q4, DAL-S6: a list with another fingerprint (the upload key) refuses the app (12) and names the file's fingerprint")
    func wrongFingerprint() async throws {
        let box = try AndroidPasskeySandbox([
            "example.com": AndroidPasskeySandbox.list(
                ["handle_all_urls", "get_login_creds"], fingerprints: [AndroidPasskeySandbox.otherKey])
        ])
        defer { box.cleanUp() }
        let result = try await box.run(["passkey", "register", try box.creation()] + box.android)
        #expect(result.status == 12, "\(result.stderr)")
        #expect(result.stderr.contains("listed with other fingerprints (\(AndroidPasskeySandbox.otherKey))"), "\(result.stderr)")
        #expect(try await box.passkeyCount() == 0)
        // Assertion is gated the same way.
        let assert = try await box.run(["passkey", "assert", try box.request()] + box.android)
        #expect(assert.status == 12, "\(assert.stderr)")
    }

    @Test(
        "DAL-Q4, DAL-S1, DAL-F5: a missing, malformed or HTML assetlinks.json refuses the app as without the association (11)",
        arguments: [nil, "[{\"relation\":[],}]", "<!doctype html><html></html>"] as [String?])
    func unreadable(body: String?) async throws {
        let box = try AndroidPasskeySandbox(body.map { ["example.com": $0] } ?? [:])
        defer { box.cleanUp() }
        let result = try await box.run(["passkey", "register", try box.creation(), "--format", "json"] + box.android)
        #expect(result.status == 11, "\(result.stderr)")
        #expect(result.stderr.contains("assetlinks.json cannot be read"), "\(result.stderr)")
        #expect(result.stderr.contains("\"name\":\"SecurityError\""), "\(result.stderr)")
        #expect(try await box.passkeyCount() == 0)
    }

    @Test("DAL-Q4: the RP ID's own file decides: an approved app asking for another RP ID is refused")
    func otherRelyingParty() async throws {
        let box = try AndroidPasskeySandbox([
            "example.com": AndroidPasskeySandbox.both, "other.example": AndroidPasskeySandbox.list(["handle_all_urls"]),
        ])
        defer { box.cleanUp() }
        let result = try await box.run(["passkey", "register", try box.creation(rpID: "other.example")] + box.android)
        #expect(result.status == 12, "\(result.stderr)")
        #expect(result.stderr.contains("other.example/.well-known/assetlinks.json"), "\(result.stderr)")
    }

    @Test("cli passkey --android-app: usage errors (64) for a missing source, --cdn, two callers, a malformed app; no RP ID is 50")
    func usage() async throws {
        let box = try AndroidPasskeySandbox(["example.com": AndroidPasskeySandbox.both])
        defer { box.cleanUp() }
        let creation = try box.creation()
        let noSource = try await box.run(["passkey", "register", creation, "--android-app", AndroidPasskeySandbox.app])
        #expect(noSource.status == 64)
        #expect(noSource.stderr.contains("--aasa-dir"))
        let cdn = try await box.run(["passkey", "register", creation, "--android-app", AndroidPasskeySandbox.app, "--cdn"])
        #expect(cdn.status == 64)
        #expect(cdn.stderr.contains("no CDN"))
        let two = try await box.run(["passkey", "register", creation, "--origin", "https://example.com"] + box.android)
        #expect(two.status == 64)
        let malformed = try await box.run(
            ["passkey", "register", creation, "--android-app", "com.example.shop=AB:CD", "--aasa-dir", box.sites.path])
        #expect(malformed.status == 64, "\(malformed.stderr)")
        let noRP = try box.options("norp.json", #"{"challenge":"\#(AndroidPasskeySandbox.assertChallenge)"}"#)
        let missing = try await box.run(["passkey", "assert", noRP] + box.android)
        #expect(missing.status == 50, "\(missing.stderr)")
    }
}

extension Data {
    /// Decodes base64url without padding.
    fileprivate init?(base64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        self.init(base64Encoded: base64)
    }
}
