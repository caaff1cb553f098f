import Foundation
import SWCredPasskeyTesting
import Testing

/// Scenario 5: a passkey registered and used, against the in-memory passkey keychain, with the
/// server's WebAuthn JSON and with Apple's AuthenticationServices requests.
@Suite("A passkey registered and used")
struct PasskeyFlowTests {
    static let appID = "ABCDE12345.com.example.tacoshop"
    static let app = SWCApp(appID: appID, associatedDomains: ["webcredentials:tacos.example"], displayName: "Taco Shop")
    static let challenge = "_-7t7Ovq6ejn5uXk4-Lh4N_e3dzb2tnY19bV1NPS0dA"

    /// `PublicKeyCredentialCreationOptionsJSON` as the shop's server sends it.
    static func creationOptions(rpID: String = "tacos.example") -> String {
        """
        {"rp":{"id":"\(rpID)","name":"Taco Shop"},
         "user":{"id":"dXNlci0x","name":"alice@example.com","displayName":"Alice"},
         "challenge":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8",
         "pubKeyCredParams":[{"type":"public-key","alg":-7}],
         "authenticatorSelection":{"residentKey":"required","userVerification":"required"}}
        """
    }

    /// `PublicKeyCredentialRequestOptionsJSON` for signing in.
    static let requestOptions = #"{"challenge":"\#(challenge)","rpId":"tacos.example"}"#

    /// A keychain on which tacos.example's association file lists the app.
    static func trustedKeychain() throws -> InMemoryPasskeyKeychain {
        let keychain = InMemoryPasskeyKeychain()
        try keychain.approve(appID: appID, domain: "tacos.example")
        return keychain
    }

    /// A base64url member of a response, decoded as the server decodes it.
    static func decode(_ base64URL: String) throws -> Data {
        var text = base64URL.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return try #require(Data(base64Encoded: text))
    }

    @Test("PK-2: register from the server's options, then sign in; the client data is what the server checks")
    func registerThenSignIn() async throws {
        let keychain = try Self.trustedKeychain()
        let user = PasskeyPromptRecorder(answers: [.allow, .choose(0)])
        let passkeys = InMemoryPasskeyCredentials(keychain: keychain, app: Self.app, responder: user)

        let registration = try await passkeys.register(optionsJSON: Self.creationOptions())
        let assertion = try await passkeys.authenticate(optionsJSON: Self.requestOptions)

        #expect(assertion.rawId == registration.rawId)
        #expect(assertion.userName == "alice@example.com")
        #expect(user.kinds == [.createPasskey, .signInWithPasskey])
        #expect(
            user.prompts.first?.title
                == "Save a passkey for \u{201C}alice@example.com\u{201D} on \u{201C}tacos.example\u{201D}?")
        #expect(user.pickers.first?.accounts == ["alice@example.com"])
        #expect(user.entries.map(\.answer) == [.allow, .choose(0)])
        #expect(keychain.passkeys.map(\.userName) == ["alice@example.com"])
        #expect(keychain.passkeys.first?.credentialIDBase64URL == registration.rawId)

        let clientData =
            try JSONSerialization.jsonObject(with: Self.decode(assertion.response.clientDataJSON)) as? [String: Any]
        #expect(clientData?["type"] as? String == "webauthn.get")
        #expect(clientData?["challenge"] as? String == Self.challenge)
        #expect(clientData?["origin"] as? String == "https://tacos.example")
    }

    @Test("PK-3: an RP ID the app is not associated with is SecurityError, ASAuthorizationError 1004; nothing saved")
    func notAssociated() async throws {
        let keychain = try Self.trustedKeychain()
        let user = PasskeyPromptRecorder(answers: [.allow])
        let passkeys = InMemoryPasskeyCredentials(keychain: keychain, app: Self.app, responder: user)

        let error = await #expect(throws: SWCredError.self) {
            try await passkeys.register(optionsJSON: Self.creationOptions(rpID: "elsewhere.example"))
        }

        let failure = try #require(error.flatMap(PasskeyFailure.init))
        #expect(failure == .notAssociated)
        #expect(failure.webAuthnName == "SecurityError")
        #expect(error?.errorCode == 1004)
        #expect(error?.errorDomain == "com.apple.AuthenticationServices.AuthorizationError")
        #expect(user.prompts.isEmpty)
        #expect(keychain.passkeys.isEmpty)
    }

    @Test("PK-3: signing in without a passkey is NotAllowedError, ASAuthorizationError 1001, without a sheet")
    func noPasskey() async throws {
        let user = PasskeyPromptRecorder(answers: [.choose(0)])
        let passkeys = InMemoryPasskeyCredentials(keychain: try Self.trustedKeychain(), app: Self.app, responder: user)

        let error = await #expect(throws: SWCredError.self) {
            try await passkeys.authenticate(optionsJSON: Self.requestOptions)
        }

        #expect(error.flatMap(PasskeyFailure.init) == .noCredentials)
        #expect(error?.errorCode == 1001)
        #expect(user.prompts.isEmpty)
    }

    @Test("PK-3: the user cancels the save sheet: NotAllowedError 1001, nothing saved")
    func canceled() async throws {
        let keychain = try Self.trustedKeychain()
        let user = PasskeyPromptRecorder(answers: [.cancel])
        let passkeys = InMemoryPasskeyCredentials(keychain: keychain, app: Self.app, responder: user)

        await #expect(throws: SWCredError.self) { try await passkeys.register(optionsJSON: Self.creationOptions()) }

        #expect(user.kinds == [.createPasskey])
        #expect(keychain.passkeys.isEmpty)
    }

    @Test(
        "PK-1: Apple's requests: register through the platform provider, then sign in with the new passkey"
    )
    func appleRequests() async throws {
        let keychain = try Self.trustedKeychain()
        let seeded = try keychain.seedPasskey(rpID: "tacos.example", userName: "bob@example.com")
        let user = PasskeyPromptRecorder(answers: [.allow, .choose(1)])
        let passkeys = InMemoryPasskeyCredentials(keychain: keychain, app: Self.app, responder: user)
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: "tacos.example")

        let registration = try await passkeys.perform(
            provider.createCredentialRegistrationRequest(
                challenge: Data(repeating: 7, count: 32), name: "alice@example.com", userID: Data("user-1".utf8)))
        let assertion = try await passkeys.perform(
            provider.createCredentialAssertionRequest(challenge: Data(repeating: 9, count: 32)))

        #expect(user.pickers.first?.accounts == ["bob@example.com", "alice@example.com"])
        #expect(assertion.credentialID == registration.credentialID)
        #expect(assertion.userID == Data("user-1".utf8))
        #expect(registration.credentialID != Data(seeded.credentialID))
    }
}
