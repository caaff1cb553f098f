import Foundation
import SWCredCore
import Testing
@testable import SWCredPasskeys

@Suite("PK-5: the options JSON reader, base64url and CBOR")
struct WebAuthnEncodingTests {
    @Test("base64url round-trips every length and refuses padding errors and stray bits")
    func base64URL() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(($0 * 37 + length) & 0xFF) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
            #expect(!Base64URL.encode(bytes).contains("="))
        }
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode("-_8=") == [0xFB, 0xFF])
        #expect(Base64URL.decode("-_9") == nil)  // non-zero unused bits
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("ab+/") == nil)
        #expect(Base64URL.decode("ab=c") == nil)
    }

    @Test("the JSON reader: values, escapes, surrogate pairs")
    func jsonValues() throws {
        let text = #" {"a":[1,-2.5e3,true,false,null],"b":"x\u00e9\ud83d\ude00\n"} "#
        let value = try WebAuthnJSON.parse(Array(text.utf8))
        #expect(value.objectValue?["a"]?.arrayValue == [.number(1), .number(-2500), .bool(true), .bool(false), .null])
        #expect(value.objectValue?["b"]?.stringValue == "xé😀\n")
    }

    @Test("PK-5: the JSON reader refuses malformed input, duplicates and anything over its limits with malformedInput")
    func jsonLimits() {
        let bad = [
            "", "{", "[1,]", "{\"a\":1,}", "{\"a\":1}x", "{\"a\":1,\"a\":2}", "\"\\ud800\"", "\"\u{01}\"", "01", "1.",
            "-", "tru", "{\"a\" 1}", "[1 2]", "\"\\x\"", "1e999",
        ]
        for text in bad {
            #expect(throws: SWCredError(.malformedInput, "")) { try WebAuthnJSON.parse(Array(text.utf8)) }
        }
        let deep = String(repeating: "[", count: 17) + String(repeating: "]", count: 17)
        #expect(throws: SWCredError(.malformedInput, "")) { try WebAuthnJSON.parse(Array(deep.utf8)) }
        let fine = String(repeating: "[", count: 16) + String(repeating: "]", count: 16)
        #expect((try? WebAuthnJSON.parse(Array(fine.utf8))) != nil)
        let big = [UInt8](repeating: 0x20, count: 64 * 1024 + 1)
        #expect(throws: SWCredError(.malformedInput, "")) { try WebAuthnJSON.parse(big) }
        let many = "[" + Array(repeating: "0", count: 257).joined(separator: ",") + "]"
        #expect(throws: SWCredError(.malformedInput, "")) { try WebAuthnJSON.parse(Array(many.utf8)) }
        #expect(throws: SWCredError(.malformedInput, "")) { try WebAuthnJSON.parse([0x22, 0xFF, 0x22]) }
    }

    @Test("PK-5: a challenge of 16 and 1024 bytes is read; 0, 15 and 1025 bytes are TypeError (exit 50)")
    func challengeLimits() throws {
        for size in [16, 1024] {
            let options = try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON(challenge: Array(repeating: 1, count: size)))
            #expect(options.challenge.count == size)
        }
        for size in [0, 15, 1025] {
            let error = #expect(throws: SWCredError.self) {
                try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON(challenge: Array(repeating: 1, count: size)))
            }
            #expect(error.flatMap(PasskeyFailure.init) == .invalidOptions)
            #expect(error?.message.hasPrefix("TypeError") == true)
            #expect(throws: SWCredError.self) {
                try PublicKeyCredentialRequestOptions(json: Fixtures.requestJSON(challenge: Array(repeating: 1, count: size)))
            }
        }
    }

    @Test("PK-5: missing or mistyped members are TypeError; malformed JSON is exit 65")
    func optionErrors() {
        let cases = [
            #"{"rp":{"name":"x"},"challenge":"AAAAAAAAAAAAAAAAAAAAAA","pubKeyCredParams":[]}"#,  // no user
            #"[1]"#,
            #"{"rp":{"id":"exa mple.com","name":"x"},"user":{"id":"AA","name":"a","displayName":"a"},"challenge":"AAAAAAAAAAAAAAAAAAAAAA","pubKeyCredParams":[]}"#,
            #"{"rp":{"name":"x"},"user":{"id":"","name":"a","displayName":"a"},"challenge":"AAAAAAAAAAAAAAAAAAAAAA","pubKeyCredParams":[]}"#,
            #"{"rp":{"name":"x"},"user":{"id":"AA","name":"a","displayName":"a"},"challenge":"AAAAAAAAAAAAAAAAAAAAAA","pubKeyCredParams":[{"type":"public-key","alg":"x"}]}"#,
        ]
        for text in cases {
            let error = #expect(throws: SWCredError.self) { try PublicKeyCredentialCreationOptions(json: Array(text.utf8)) }
            #expect(error.flatMap(PasskeyFailure.init) == .invalidOptions)
        }
        let error = #expect(throws: SWCredError.self) { try PublicKeyCredentialCreationOptions(json: Array("{".utf8)) }
        #expect(error?.code == .malformedInput)
    }

    @Test("clientDataJSON is serialised exactly as WebAuthn L3 §5.8.1.1 writes it")
    func clientData() {
        let data = CollectedClientData(type: .create, challenge: [1, 2, 3], origin: "https://example.com")
        #expect(String(decoding: data.json, as: UTF8.self)
            == #"{"type":"webauthn.create","challenge":"AQID","origin":"https://example.com","crossOrigin":false}"#)
        #expect(CollectedClientData.ccdToString("a\"\\\u{01}") == Array(#""a\"\\\u0001""#.utf8))
    }

    @Test("RP ID rules: equal host or registrable suffix; public suffixes and other sites are refused")
    func rpIDRules() throws {
        #expect(RelyingPartyID.isValid("example.com", forHost: "login.example.com"))
        #expect(RelyingPartyID.isValid("example.com", forHost: "example.com"))
        #expect(!RelyingPartyID.isValid("example.com", forHost: "badexample.com"))
        #expect(!RelyingPartyID.isValid("com", forHost: "example.com"))
        #expect(!RelyingPartyID.isValid("github.io", forHost: "me.github.io"))
        #expect(!RelyingPartyID.isValid("login.example.com", forHost: "example.com"))
        #expect(RelyingPartyID.canonical("Example.COM") == "example.com")
        #expect(RelyingPartyID.canonical("10.0.0.1") == nil)
        #expect(RelyingPartyID.canonical("a..b") == nil)
        #expect(try RelyingPartyID.Origin(parsing: "https://Login.Example.com:443").description == "https://login.example.com")
        #expect(try RelyingPartyID.Origin(parsing: "http://localhost:8080").description == "http://localhost:8080")
        for bad in ["http://example.com", "ftp://example.com", "https://example.com/path", "https://user@example.com", "example.com"] {
            let error = #expect(throws: SWCredError.self) { try RelyingPartyID.Origin(parsing: bad) }
            #expect(error.flatMap(PasskeyFailure.init) == .originNotAllowed)
        }
    }
}
