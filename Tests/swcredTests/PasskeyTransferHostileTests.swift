import Foundation
import Testing

@Suite("swcred passkey import: hostile documents (cli.md Browser tests)")
struct PasskeyTransferHostileTests {
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
        // Keys made by openssl: a P-384 key in PKCS#8 DER (genpkey's -outform DER alone writes SEC 1,
        // which would be refused for its layout before its curve), and a P-256 key in SEC 1 DER.
        func openssl(_ pipeline: String) throws -> (standard: String, bytes: [UInt8]) {
            let made = try CLI.runProgram(URL(fileURLWithPath: "/usr/bin/env"), ["sh", "-c", pipeline + " | base64 -w0"])
            let standard = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            return (standard, Array(Data(base64Encoded: standard) ?? Data()))
        }
        let p384 = try openssl(
            "openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 | openssl pkcs8 -topk8 -nocrypt -outform DER")
        let p384Standard = p384.standard
        let p384Key = b64url(p384.bytes)
        // PrivateKeyInfo version 0, id-ecPublicKey, secp384r1.
        #expect(p384.bytes.prefix(6) == [0x30, 0x81, 0xB6, 0x02, 0x01, 0x00], "openssl made no P-384 PKCS#8 key")
        #expect(p384.bytes.count > 30 && p384.bytes[19..<24] == [0x2B, 0x81, 0x04, 0x00, 0x22], "not secp384r1")
        let sec1 = try openssl("openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -outform DER")
        #expect(sec1.bytes.prefix(5) == [0x30, 0x77, 0x02, 0x01, 0x01], "openssl made no SEC 1 P-256 key")
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
            ("a P-256 key in SEC 1, not PKCS#8", "playwright", try playwright { $0["privateKey"] = b64url(sec1.bytes) }, 65, []),
            ("cdp: a P-256 key in SEC 1", "cdp", try cdp { $0["privateKey"] = sec1.standard }, 65, []),
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
            ("cdp: a P-384 key", "cdp", try cdp { $0["privateKey"] = p384Standard }, 65, []),
            ("cdp: signCount -2", "cdp", try cdp { $0["signCount"] = -2 }, 65, []),
            ("cdp: signCount over 2^32-1", "cdp", try cdp { $0["signCount"] = 4_294_967_296 }, 65, []),
            ("cdp: a 513-byte userName", "cdp", try cdp { $0["userName"] = String(repeating: "n", count: 513) }, 65, []),
            ("cdp: a huge userDisplayName", "cdp",
             try cdp { $0["userDisplayName"] = String(repeating: "d", count: 900_000) }, 65, []),
            ("cdp: base64 without padding", "cdp",
             try cdp { $0["credentialId"] = ($0["credentialId"] as? String)?.replacingOccurrences(of: "=", with: "") }, 65, []),
            ("cdp: deep nesting", "cdp", String(repeating: "[", count: 100) + String(repeating: "]", count: 100), 65, []),
            ("cdp: a credential that is a string", "cdp", #"["credentialId"]"#, 65, []),
            ("cdp: one P-384 key among good ones", "cdp",
             try jsonText([cdpBoth[1], cdpBoth[0].merging(["privateKey": p384Standard]) { $1 }]), 65, []),
            ("a credential that is null", "playwright", #"{"cookies":[],"origins":[],"credentials":[null]}"#, 65, []),
            ("rpId a number", "playwright", try playwright { $0["rpId"] = 5 }, 65, []),
            ("one mismatched public key among good ones", "playwright",
             try jsonText(["cookies": [], "origins": [], "credentials": [
                 both[1], both[0].merging(["publicKey": both[1]["publicKey"] ?? ""]) { $1 },
             ]]), 65, []),
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
}
