import Foundation
import Testing

/// `swcred passkey register|assert --origin` with an RP ID of another registrable domain: WebAuthn
/// related origins (asset-links.md §2.1, ROR-Q1), with the RP ID's file from `--aasa-dir`.
private struct RelatedOriginSandbox {
    static let challenge = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"
    static let assertChallenge = "_-7t7Ovq6ejn5uXk4-Lh4N_e3dzb2tnY19bV1NPS0dA"
    static let rpID = "shop.example.com"
    let home: URL
    let sites: URL
    let publicSuffixList: URL

    init(webauthn: String?) throws {
        home = try CLI.temporaryDirectory("swcred-ror")
        sites = home.appendingPathComponent("sites")
        let folder = sites.appendingPathComponent(Self.rpID).appendingPathComponent(".well-known")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let webauthn { try Data(webauthn.utf8).write(to: folder.appendingPathComponent("webauthn")) }
        // A small list of its own, so that the test does not depend on the machine's data.
        publicSuffixList = home.appendingPathComponent("public_suffix_list.dat")
        try Data("com\nde\nfr\nuk\nco.uk\nnet\norg\n// ===BEGIN PRIVATE DOMAINS===\ngithub.io\n".utf8)
            .write(to: publicSuffixList)
    }

    func run(_ arguments: [String], list: String? = nil) async throws -> CLI.Result {
        try await CLI.run(
            arguments, environment: ["SWCRED_PUBLIC_SUFFIX_LIST": list ?? publicSuffixList.path], home: home)
    }

    func options(_ name: String, _ json: String) throws -> String {
        let url = home.appendingPathComponent(name)
        try Data(json.utf8).write(to: url)
        return url.path
    }

    func creation() throws -> String {
        try options("create.json", #"""
            {"rp":{"id":"\#(Self.rpID)","name":"Shop"},
             "user":{"id":"dXNlci0x","name":"alice@example.de","displayName":"Alice"},
             "challenge":"\#(Self.challenge)","pubKeyCredParams":[{"type":"public-key","alg":-7}],
             "authenticatorSelection":{"residentKey":"required","userVerification":"required"},"attestation":"none"}
            """#)
    }

    func request() throws -> String {
        try options(
            "get.json",
            #"{"challenge":"\#(Self.assertChallenge)","rpId":"\#(Self.rpID)","userVerification":"required"}"#)
    }

    var dir: [String] { ["--aasa-dir", sites.path] }

    func cleanUp() { try? FileManager.default.removeItem(at: home) }
}

private enum RelyingParty {
    static let script = CLI.repositoryRoot
        .appendingPathComponent("Tests/SWCredPasskeysTests/Support/verify_webauthn.py").path
    static func run(_ arguments: [String], stdin: String) throws -> CLI.Result {
        try CLI.runProgram(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script] + arguments, stdin: stdin)
    }
    static var present: Bool { (try? run(["check"], stdin: ""))?.status == 0 }
}

@Suite("swcred passkey --origin with related origins")
struct PasskeyRelatedOriginTests {
    static let listed = #"{"origins":["https://shop.example.de","https://example.co.uk"]}"#

    @Test("ROR-Q1: a related origin registers and asserts; py_webauthn accepts both with the expected origin")
    func relatedOriginCeremony() async throws {
        let box = try RelatedOriginSandbox(webauthn: Self.listed)
        defer { box.cleanUp() }
        let origin = "https://shop.example.de"
        let registered = try await box.run(["passkey", "register", try box.creation(), "--origin", origin] + box.dir)
        #expect(registered.status == 0, "\(registered.stderr)")
        let asserted = try await box.run(
            ["passkey", "assert", try box.request(), "--origin", origin, "--format", "json"] + box.dir)
        #expect(asserted.status == 0, "\(asserted.stderr)")
        let credential = try #require(try asserted.json()["credential"] as? [String: Any])
        let response = try #require(credential["response"] as? [String: Any])
        let clientData = try #require(response["clientDataJSON"] as? String)
        var base64 = clientData.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        let decoded = try #require(Data(base64Encoded: base64))
        let client = try #require(try JSONSerialization.jsonObject(with: decoded) as? [String: Any])
        #expect(client["origin"] as? String == origin)
        guard RelyingParty.present else { return }
        let reg = try RelyingParty.run(
            ["register", "webauthn", RelatedOriginSandbox.challenge, origin, RelatedOriginSandbox.rpID],
            stdin: registered.stdout)
        #expect(reg.status == 0, "\(reg.stderr)")
        let key = try #require(try reg.json()["credentialPublicKey"] as? String)
        let assertion = String(decoding: try JSONSerialization.data(withJSONObject: credential), as: UTF8.self)
        let verified = try RelyingParty.run(
            ["assert", "webauthn", RelatedOriginSandbox.assertChallenge, origin, RelatedOriginSandbox.rpID, key],
            stdin: assertion)
        #expect(verified.status == 0, "\(verified.stderr)")
    }

    @Test("ROR-L1: an origin listed after five registrable labels is refused (SecurityError, 50), naming the rule")
    func sixthLabelRefused() async throws {
        let entries = ["https://a.com", "https://b.de", "https://c.fr", "https://d.co.uk", "https://e.org",
            "https://shop.example.de"]
        let json = "{\"origins\":[" + entries.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
        let box = try RelatedOriginSandbox(webauthn: json)
        defer { box.cleanUp() }
        let refused = try await box.run(
            ["passkey", "register", try box.creation(), "--origin", "https://shop.example.de", "--format", "json"]
                + box.dir)
        #expect(refused.status == 50, "\(refused.stderr)")
        #expect(try refused.errorJSON()["name"] as? String == "SecurityError")
        #expect(refused.stderr.contains("ROR-L1"))
        // The fifth label still works.
        let fifth = try await box.run(
            ["passkey", "register", try box.creation(), "--origin", "https://e.org"] + box.dir)
        #expect(fifth.status == 0, "\(fifth.stderr)")
    }

    @Test("ROR-F1, ROR-S1, ROR-Q1: an unlisted origin, a missing or malformed file, no source are 50; --cdn is 64")
    func refusals() async throws {
        let listed = try RelatedOriginSandbox(webauthn: Self.listed)
        defer { listed.cleanUp() }
        let creation = try listed.creation()
        let unlisted = try await listed.run(
            ["passkey", "register", creation, "--origin", "https://example.fr"] + listed.dir)
        #expect(unlisted.status == 50)
        #expect(unlisted.stderr.contains("does not list"))
        let noSource = try await listed.run(["passkey", "register", creation, "--origin", "https://shop.example.de"])
        #expect(noSource.status == 50)
        #expect(noSource.stderr.contains("--aasa-dir"))
        let cdn = try await listed.run(
            ["passkey", "register", creation, "--origin", "https://shop.example.de", "--cdn"])
        #expect(cdn.status == 64)
        let noList = try await listed.run(
            ["passkey", "register", creation, "--origin", "https://shop.example.de"] + listed.dir,
            list: listed.home.appendingPathComponent("missing.dat").path)
        #expect(noList.status == 50)
        #expect(noList.stderr.contains("SWCRED_PUBLIC_SUFFIX_LIST"))

        let missing = try RelatedOriginSandbox(webauthn: nil)
        defer { missing.cleanUp() }
        let absent = try await missing.run(
            ["passkey", "register", try missing.creation(), "--origin", "https://shop.example.de"] + missing.dir)
        #expect(absent.status == 50)
        #expect(absent.stderr.contains("cannot read"))

        let malformedBodies = [
            #"{"origins":"https://shop.example.de"}"#, #"{"origins":["https://shop.example.de",1]}"#, "<html>",
        ]
        for body in malformedBodies {
            let malformed = try RelatedOriginSandbox(webauthn: body)
            defer { malformed.cleanUp() }
            let result = try await malformed.run(
                ["passkey", "assert", try malformed.request(), "--origin", "https://shop.example.de"] + malformed.dir)
            #expect(result.status == 50, "\(body)")
            #expect(result.stderr.contains("ROR-S1"), "\(body)")
        }
    }

    @Test("ROR-S1, ROR-L1: swcred lint reads a webauthn file by content and by --kind; findings carry rule")
    func lint() async throws {
        let entries = ["https://a.com", "https://b.de", "https://c.fr", "https://d.co.uk", "https://e.org",
            "https://f.net", "http://a.com"]
        let json = "{\"origins\":[" + entries.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
        let box = try RelatedOriginSandbox(webauthn: json)
        defer { box.cleanUp() }
        let file = box.sites.appendingPathComponent("\(RelatedOriginSandbox.rpID)/.well-known/webauthn").path
        for kind in [[], ["--kind", "webauthn"]] {
            let result = try await box.run(["lint", file, "--format", "json"] + kind)
            #expect(result.status == 65, "\(result.stderr)")
            let findings = try #require(try result.json()["findings"] as? [[String: Any]])
            #expect(findings.contains { $0["rule"] as? String == "ROR-L1" && $0["id"] as? String == "SWC251"
                && $0["path"] as? String == "origins[5]" })
            #expect(findings.contains { $0["rule"] as? String == "ROR-S2" && $0["path"] as? String == "origins[6]" })
        }
        let explained = try await box.run(["explain", "SWC251"])
        #expect(explained.status == 0)
        #expect(explained.stdout.contains("What browsers do"))
        let noList = try await box.run(["lint", file, "--kind", "webauthn"], list: "/nonexistent/psl.dat")
        #expect(noList.status == 66)
    }
}
