import Crypto
import Foundation
import SWCredCore
import SWCredKit
import SWCredPasskeyTesting
import SWCredStore
import Testing
@testable import SWCredPasskeys

@Suite("PK-9: the Swift API, Apple's names, and the in-memory passkey keychain")
struct LoginFlowTests {
    static let app = SWCApp(appID: Fixtures.appID, associatedDomains: ["webcredentials:example.com"])

    @Test("a login flow: seed a passkey, sign in through Apple's names, assert what the user saw, verify the signature")
    func seededSignIn() async throws {
        let keychain = InMemoryPasskeyKeychain(clock: { Fixtures.now })
        try keychain.approve(appID: Fixtures.appID, domain: "example.com")
        let seeded = try keychain.seedPasskey(rpID: "example.com", userName: "alice")
        _ = try keychain.seedPasskey(rpID: "example.com", userName: "bob")
        let user = PasskeyPromptRecorder(answers: [.choose(0)])
        let passkeys = PasskeyCredentials(backend: keychain, caller: .app(Self.app, device: SWCDeviceSettings()), responder: user)
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: "example.com")
        let challenge = Data((0..<32).map { UInt8($0) })
        let assertion = try await passkeys.perform(provider.createCredentialAssertionRequest(challenge: challenge))
        #expect(assertion.credentialID == Data(seeded.credentialID))
        #expect(user.prompts.map(\.kind) == [.signInWithPasskey])
        #expect(user.prompts.first?.accounts == ["alice", "bob"])
        #expect(user.prompts.first?.appName == "shop")
        let key = try P256.Signing.PublicKey(derRepresentation: seeded.publicKeyDER)
        let signature = try P256.Signing.ECDSASignature(derRepresentation: assertion.signature)
        #expect(key.isValidSignature(signature, for: assertion.rawAuthenticatorData + Data(SHA256.hash(data: assertion.rawClientDataJSON))))
    }

    @Test("registration through Apple's names; excludedCredentials and association failures keep the keychain unchanged")
    func registration() async throws {
        let keychain = InMemoryPasskeyKeychain(clock: { Fixtures.now })
        try keychain.approve(appID: Fixtures.appID, domain: "example.com")
        let user = PasskeyPromptRecorder(answers: [.allow, .allow, .allow])
        let passkeys = PasskeyCredentials(backend: keychain, caller: .app(Self.app, device: SWCDeviceSettings()), responder: user)
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: "example.com")
        var request = provider.createCredentialRegistrationRequest(
            challenge: Data(repeating: 7, count: 32), name: "alice", userID: Data("u1".utf8))
        let registration = try await passkeys.perform(request)
        #expect(keychain.passkeys.count == 1)
        #expect(registration.rawAttestationObject?.isEmpty == false)
        request.excludedCredentials = [.init(credentialID: registration.credentialID)]
        let excludedRequest = request
        await #expect(throws: SWCredError.self) { _ = try await passkeys.perform(excludedRequest) }
        #expect(keychain.passkeys.count == 1)
        let elsewhere = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: "other.example")
        do {
            _ = try await passkeys.perform(
                elsewhere.createCredentialRegistrationRequest(challenge: Data(repeating: 7, count: 32), name: "a", userID: Data([1])))
            Issue.record("an unassociated RP ID registered")
        } catch {
            #expect(PasskeyFailure(error) == .notAssociated)
            #expect((error as NSError).code == 1004)
            #expect((error as NSError).domain == "com.apple.AuthenticationServices.AuthorizationError")
        }
        #expect(keychain.passkeys.count == 1)
        #expect(user.prompts.map(\.kind) == [.createPasskey, .createPasskey])
    }

    @Test("the encrypted store as a backend: register, then authenticate in a fresh instance")
    func storeBackend() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swcred-passkey-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyPath = directory.appendingPathComponent("key").path
        let storePath = directory.appendingPathComponent("keychain.swcred").path
        let options = StoreOptions(stateDirectory: directory.appendingPathComponent("state").path)
        let (store, _) = try KeychainStore.openOrCreate(at: storePath, keySource: .keyFile(path: keyPath), options: options)
        let caller = try Fixtures.browser()
        let registration = try await PasskeyCredentials(backend: store, caller: caller).register(optionsJSON: Fixtures.creationJSON())
        let reopened = try KeychainStore.open(at: storePath, keySource: .keyFile(path: keyPath), options: options)
        let assertion = try await PasskeyCredentials(backend: reopened, caller: caller).authenticate(optionsJSON: Fixtures.requestJSON())
        #expect(assertion.id == registration.id)
        #expect(try reopened.snapshot().contents.passkeys.count == 1)
    }
}
