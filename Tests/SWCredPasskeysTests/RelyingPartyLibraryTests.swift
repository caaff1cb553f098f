import Foundation
import SWCredCore
import SWCredKit
import SWCredStore
import Testing
@testable import SWCredPasskeys

/// Responses checked by independent relying-party libraries: py_webauthn (`webauthn`) and
/// python-fido2 (`fido2`), through Support/verify_webauthn.py. Skipped when python3 or either
/// library is missing (`pip install webauthn fido2`; .ci/run installs them).
@Suite("PK-7: responses verified by py_webauthn and python-fido2", .enabled(if: PythonVerifier.available))
struct RelyingPartyLibraryTests {
    struct Ceremony {
        let registration: Data
        let assertion: Data
        let challenge: [UInt8]
        let assertChallenge: [UInt8]
    }

    static func ceremony(caller: PasskeyCaller, rpID: String?) throws -> Ceremony {
        var contents = try Fixtures.contents(approved: ["example.com"])
        let registration = try PasskeyAuthenticator.register(
            try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON(rpID: rpID)), caller: caller,
            responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        let assertChallenge = (0..<64).map { UInt8(255 - $0) }
        let assertion = try PasskeyAuthenticator.authenticate(
            try PublicKeyCredentialRequestOptions(json: Fixtures.requestJSON(rpID: rpID, challenge: assertChallenge)),
            caller: caller, responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        let encoder = JSONEncoder()
        return Ceremony(
            registration: try encoder.encode(registration), assertion: try encoder.encode(assertion),
            challenge: Fixtures.challenge, assertChallenge: assertChallenge)
    }

    @Test("PK-7, PK-4: an app's registration verifies (zero AAGUID, counter 0, flags UP UV BE BS AT) and yields the key; its assertion verifies with that key", arguments: ["webauthn", "fido2"])
    func appCeremony(library: String) throws {
        let ceremony = try Self.ceremony(caller: Fixtures.app(), rpID: "example.com")
        let origin = "https://example.com"
        let registered = try PythonVerifier.run(
            ["register", library, Base64URL.encode(ceremony.challenge), origin, "example.com"], input: ceremony.registration)
        #expect(registered.status == 0, "\(registered.stderr)")
        let json = registered.json
        let key = try #require((json["credentialPublicKey"] ?? json["credentialData"]) as? String)
        #expect(json["signCount"] as? Int == 0)
        #expect(json["aaguid"] as? String == "00000000-0000-0000-0000-000000000000")
        if library == "webauthn" {
            #expect(json["backedUp"] as? Bool == true)
            #expect(json["deviceType"] as? String == "multi_device")
            #expect(json["fmt"] as? String == "none")
            #expect(json["userVerified"] as? Bool == true)
        } else {
            // UP | UV | BE | BS | AT, as python-fido2 reads the authenticator data (PK-4).
            #expect(json["flags"] as? Int == 0x5D)
        }
        let asserted = try PythonVerifier.run(
            ["assert", library, Base64URL.encode(ceremony.assertChallenge), origin, "example.com", key], input: ceremony.assertion)
        #expect(asserted.status == 0, "\(asserted.stderr)")
        if library == "webauthn" {
            #expect(asserted.json["signCount"] as? Int == 0)
            #expect(asserted.json["userVerified"] as? Bool == true)
            #expect(asserted.json["backedUp"] as? Bool == true)
        }
    }

    @Test("PK-7: a browser ceremony on a subdomain origin verifies with that origin", arguments: ["webauthn", "fido2"])
    func browserCeremony(library: String) throws {
        let origin = "https://login.example.com"
        let ceremony = try Self.ceremony(caller: try Fixtures.browser(origin), rpID: "example.com")
        let registered = try PythonVerifier.run(
            ["register", library, Base64URL.encode(ceremony.challenge), origin, "example.com"], input: ceremony.registration)
        #expect(registered.status == 0, "\(registered.stderr)")
        let key = try #require((registered.json["credentialPublicKey"] ?? registered.json["credentialData"]) as? String)
        let asserted = try PythonVerifier.run(
            ["assert", library, Base64URL.encode(ceremony.assertChallenge), origin, "example.com", key], input: ceremony.assertion)
        #expect(asserted.status == 0, "\(asserted.stderr)")
    }

    @Test("PK-7: a wrong origin, RP ID or challenge, or a tampered byte, is rejected by the library", arguments: ["webauthn", "fido2"])
    func rejections(library: String) throws {
        let ceremony = try Self.ceremony(caller: Fixtures.app(), rpID: "example.com")
        let challenge = Base64URL.encode(ceremony.challenge)
        let assertChallenge = Base64URL.encode(ceremony.assertChallenge)
        let origin = "https://example.com"
        let registered = try PythonVerifier.run(["register", library, challenge, origin, "example.com"], input: ceremony.registration)
        #expect(registered.status == 0, "\(registered.stderr)")
        let key = try #require((registered.json["credentialPublicKey"] ?? registered.json["credentialData"]) as? String)
        let wrongChallenge = Base64URL.encode([UInt8](repeating: 1, count: 32))
        // Registration: wrong origin, RP ID, challenge.
        for args in [
            [challenge, "https://evil.example", "example.com"], [challenge, origin, "other.example"],
            [wrongChallenge, origin, "example.com"],
        ] {
            let outcome = try PythonVerifier.run(["register", library] + args, input: ceremony.registration)
            #expect(outcome.status == 1, "register \(args) should be rejected: \(outcome.stderr)")
        }
        // Assertion: wrong origin, RP ID, challenge.
        for args in [
            [assertChallenge, "https://evil.example", "example.com"], [assertChallenge, origin, "other.example"],
            [wrongChallenge, origin, "example.com"],
        ] {
            let outcome = try PythonVerifier.run(["assert", library] + args + [key], input: ceremony.assertion)
            #expect(outcome.status == 1, "assert \(args) should be rejected: \(outcome.stderr)")
        }
        // Assertion: one flipped bit in the signature, the authenticator data or the client data.
        let response = try #require(try JSONSerialization.jsonObject(with: ceremony.assertion) as? [String: Any])
        for field in ["signature", "authenticatorData", "clientDataJSON"] {
            var inner = try #require(response["response"] as? [String: Any])
            let encoded = try #require(inner[field] as? String)
            var bytes = try #require(Base64URL.decode(encoded))
            bytes[bytes.count / 2] ^= 0x01
            inner[field] = Base64URL.encode(bytes)
            var tampered = response
            tampered["response"] = inner
            let outcome = try PythonVerifier.run(
                ["assert", library, assertChallenge, origin, "example.com", key],
                input: try JSONSerialization.data(withJSONObject: tampered))
            #expect(outcome.status == 1, "a tampered \(field) should be rejected: \(outcome.stderr)")
        }
    }
}
