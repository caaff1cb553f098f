import Crypto
import Foundation
import SWCredCore
import SWCredStore
import Testing
@testable import SWCredPasskeys

/// The browser-test documents (cli.md "Browser tests") and the sign count in assertions, on the
/// library: `PasskeyExportDocument`, `PasskeyImportDocument`, `PasskeyImport`, `Base64Standard`.
@Suite("Passkey export and import documents; the sign count in assertions")
struct PasskeyTransferTests {
    static func registered() throws -> (StoreContents, RegistrationResponse) {
        var contents = try Fixtures.contents()
        let registration = try PasskeyAuthenticator.register(
            try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON()), caller: Fixtures.app(),
            responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        return (contents, registration)
    }

    /// Raises the first passkey's count the way an import does.
    static func raiseCount(_ contents: inout StoreContents, to count: UInt32) throws {
        var passkey = contents.passkeys[0]
        passkey.signCount = count
        #expect(try contents.importPasskey(passkey, userName: nil, displayName: nil, at: Fixtures.now) == .updated)
    }

    static func assertCount(_ contents: inout StoreContents) throws -> UInt32 {
        let assertion = try PasskeyAuthenticator.authenticate(
            try PublicKeyCredentialRequestOptions(json: Fixtures.requestJSON()), caller: Fixtures.app(),
            responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        let authData = try #require(Base64URL.decode(assertion.response.authenticatorData))
        return authData[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
    }

    @Test("An assertion carries the stored count big-endian and advances it: 0 stays 0, 255 goes to 256, 2^32-1 stays")
    func signCountInAssertions() throws {
        var (contents, _) = try Self.registered()
        #expect(try Self.assertCount(&contents) == 0)
        #expect(contents.passkeys[0].signCount == 0)
        try Self.raiseCount(&contents, to: 255)
        #expect(try Self.assertCount(&contents) == 256)
        #expect(contents.passkeys[0].signCount == 256)
        try Self.raiseCount(&contents, to: .max)
        #expect(try Self.assertCount(&contents) == .max)
    }

    @Test("Standard base64 with padding: RFC 4648 vectors; base64url, bad padding and non-zero low bits are refused")
    func base64Standard() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            #expect(Base64Standard.encode(Array(plain.utf8)) == encoded)
            #expect(Base64Standard.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base64Standard.encode([0xFB, 0xFF]) == "+/8=")
        for bad in ["Zg", "Zg=", "Zm9v=", "-_8=", "Zh==", "Z===", "Zm=v", "Zm9v\n"] { #expect(Base64Standard.decode(bad) == nil, "\(bad)") }
    }

    @Test("Both documents round-trip through the reader: key, public key, user handle, count and (CDP) names")
    func roundTrip() throws {
        var (contents, registration) = try Self.registered()
        try Self.raiseCount(&contents, to: 9)
        let stored = contents.passkeys[0]
        for format in PasskeyTransferFormat.allCases {
            let bytes = try PasskeyExportDocument.encode(contents.passkeys, as: format)
            var document = try PasskeyImportDocument(json: bytes, format: format)
            let read = try #require(document.credentials.first)
            #expect(document.credentials.count == 1)
            #expect(read.passkey.credentialID == stored.credentialID && read.passkey.rpID == stored.rpID)
            #expect(read.passkey.userHandle == stored.userHandle && read.passkey.signCount == 9)
            #expect(read.passkey.privateKey == stored.privateKey)
            #expect(read.userName == (format == .cdp ? stored.userName : nil))
            #expect(!"\(read)".contains("\(stored.privateKey)"))
            document.wipe()
            #expect(document.credentials[0].passkey.privateKey == Array(repeating: 0, count: 32))
        }
        let playwright = String(decoding: try PasskeyExportDocument.encode(contents.passkeys, as: .playwright), as: UTF8.self)
        #expect(playwright.contains("\"publicKey\":\"\(registration.response.publicKey)\""))
        #expect(String(decoding: try PasskeyExportDocument.encode([], as: .cdp), as: UTF8.self) == "[]\n")
        #expect(String(decoding: try PasskeyExportDocument.encode([], as: .playwright), as: UTF8.self)
            == "{\"cookies\":[],\"origins\":[],\"credentials\":[]}\n")
    }

    @Test("Import checks every RP ID before it writes: an app's unassociated RP ID is 11 and nothing changes; a browser origin's other site is 50")
    func importAuthorization() throws {
        var (contents, _) = try Self.registered()
        try Self.raiseCount(&contents, to: 3)
        let exported = try PasskeyExportDocument.encode(contents.passkeys, as: .playwright)
        let other = String(decoding: exported, as: UTF8.self).replacingOccurrences(of: "\"example.com\"", with: "\"other.example\"")
        let good = try PasskeyImportDocument(json: exported, format: .playwright)
        let bad = try PasskeyImportDocument(json: Array(other.utf8), format: .playwright)
        var fresh = try Fixtures.contents()
        let before = fresh
        #expect(throws: SWCredError(PasskeyFailure.notAssociated.code(asApp: true), "")) {
            _ = try PasskeyImport.apply(bad, caller: Fixtures.app(), to: &fresh, at: Fixtures.now)
        }
        #expect(fresh == before)
        #expect(throws: SWCredError(PasskeyFailure.originNotAllowed.code(asApp: false), "")) {
            _ = try PasskeyImport.apply(bad, caller: try Fixtures.browser(), to: &fresh, at: Fixtures.now)
        }
        let summary = try PasskeyImport.apply(good, caller: Fixtures.app(), to: &fresh, at: Fixtures.now)
        #expect(summary == PasskeyImport.Summary(from: "playwright", passkeys: 1, added: 1))
        #expect(try Self.assertCount(&fresh) == 4)
        // Without a caller, each RP ID is checked as a browser at https://<rpId>: both are fine.
        var neutral = try Fixtures.contents()
        #expect(try PasskeyImport.apply(bad, caller: nil, to: &neutral, at: Fixtures.now).added == 1)
    }
}
