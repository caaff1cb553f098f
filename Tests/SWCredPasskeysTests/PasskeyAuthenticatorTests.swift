import Crypto
import Foundation
import SWCredCore
import SWCredKit
import SWCredStore
import Synchronization
import Testing
@testable import SWCredPasskeys

/// Decodes the parts of a registration response the tests look at.
struct DecodedRegistration {
    let credentialID: [UInt8]
    let clientDataJSON: [UInt8]
    let authData: [UInt8]
    let attestationObject: [UInt8]
    let publicKey: P256.Signing.PublicKey

    init(_ response: RegistrationResponse) throws {
        credentialID = try #require(Base64URL.decode(response.id))
        clientDataJSON = try #require(Base64URL.decode(response.response.clientDataJSON))
        authData = try #require(Base64URL.decode(response.response.authenticatorData))
        attestationObject = try #require(Base64URL.decode(response.response.attestationObject))
        publicKey = try P256.Signing.PublicKey(derRepresentation: try #require(Base64URL.decode(response.response.publicKey)))
    }
}

@Suite("PK-1, PK-4: registration and assertion as iCloud Keychain does them")
struct PasskeyAuthenticatorTests {
    @Test("PK-4: registration writes rpIdHash, flags UP|UV|BE|BS|AT, counter 0, zero AAGUID, a 20-byte ID and the COSE key")
    func registrationShape() throws {
        var contents = try Fixtures.contents()
        let options = try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON())
        let response = try PasskeyAuthenticator.register(
            options, caller: try Fixtures.browser(), responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        let decoded = try DecodedRegistration(response)
        let authData = decoded.authData
        #expect(Array(authData[0..<32]) == Array(SHA256.hash(data: Array("example.com".utf8))))
        #expect(authData[32] == 0x5D)
        #expect(Array(authData[33..<37]) == [0, 0, 0, 0])
        #expect(Array(authData[37..<53]) == [UInt8](repeating: 0, count: 16))
        #expect(Int(authData[53]) << 8 | Int(authData[54]) == 20)
        #expect(Array(authData[55..<75]) == decoded.credentialID)
        let point = Array(decoded.publicKey.x963Representation)
        var cose: [UInt8] = [0xA5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]
        cose += point[1..<33]
        cose += [0x22, 0x58, 0x20]
        cose += point[33..<65]
        #expect(Array(authData[75...]) == cose)
        // {"fmt":"none","attStmt":{},"authData":h'…'}
        var prefix: [UInt8] = [0xA3, 0x63]
        prefix += Array("fmt".utf8)
        prefix += [0x64]
        prefix += Array("none".utf8)
        prefix += [0x67]
        prefix += Array("attStmt".utf8)
        prefix += [0xA0, 0x68]
        prefix += Array("authData".utf8)
        #expect(authData.count == 152)
        prefix += [0x58, UInt8(authData.count)]
        #expect(decoded.attestationObject == prefix + authData)
        #expect(String(decoding: decoded.clientDataJSON, as: UTF8.self)
            == #"{"type":"webauthn.create","challenge":"\#(Base64URL.encode(Fixtures.challenge))","origin":"https://example.com","crossOrigin":false}"#)
        #expect(response.response.publicKeyAlgorithm == -7)
        #expect(response.authenticatorAttachment == "platform")
        #expect(response.response.transports == ["hybrid", "internal"])
        let stored = try #require(contents.passkeys.first)
        #expect(stored.credentialID == decoded.credentialID)
        #expect(stored.userHandle == Fixtures.userID)
        #expect(stored.creationDate == Fixtures.now)
        #expect(!"\(stored)".contains("\(stored.privateKey)"))
        #expect(!String(decoding: try JSONEncoder().encode(response), as: UTF8.self).contains(Base64URL.encode(stored.privateKey)))
    }

    @Test("PK-4: an assertion signs authenticatorData || SHA-256(clientDataJSON) with the registered key; flags UP|UV|BE|BS, counter 0")
    func assertionVerifies() throws {
        var contents = try Fixtures.contents()
        let registration = try PasskeyAuthenticator.register(
            try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON()), caller: Fixtures.app(),
            responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        let decoded = try DecodedRegistration(registration)
        let challenge = [UInt8](repeating: 0xAB, count: 48)
        let later = Fixtures.now.addingTimeInterval(60)
        let assertion = try PasskeyAuthenticator.authenticate(
            try PublicKeyCredentialRequestOptions(json: Fixtures.requestJSON(challenge: challenge)), caller: Fixtures.app(),
            responder: Fixtures.allow, in: &contents, at: later)
        let authData = try #require(Base64URL.decode(assertion.response.authenticatorData))
        let clientData = try #require(Base64URL.decode(assertion.response.clientDataJSON))
        let signature = try P256.Signing.ECDSASignature(derRepresentation: try #require(Base64URL.decode(assertion.response.signature)))
        #expect(authData.count == 37)
        #expect(authData[32] == 0x1D)
        #expect(decoded.publicKey.isValidSignature(signature, for: authData + Array(SHA256.hash(data: clientData))))
        var tampered = authData
        tampered[36] ^= 1
        #expect(!decoded.publicKey.isValidSignature(signature, for: tampered + Array(SHA256.hash(data: clientData))))
        #expect(String(decoding: clientData, as: UTF8.self)
            == #"{"type":"webauthn.get","challenge":"\#(Base64URL.encode(challenge))","origin":"https://example.com","crossOrigin":false}"#)
        #expect(assertion.id == registration.id)
        #expect(assertion.response.userHandle == Base64URL.encode(Fixtures.userID))
        #expect(contents.passkeys.first?.lastUsedDate == later)
    }

    @Test("WebAuthn §6.3.2: a second registration for the same user handle replaces the first")
    func sameUserReplaces() throws {
        var contents = try Fixtures.contents()
        let options = try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON())
        let first = try PasskeyAuthenticator.register(options, caller: Fixtures.app(), responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        let second = try PasskeyAuthenticator.register(options, caller: Fixtures.app(), responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        #expect(first.id != second.id)
        #expect(contents.passkeys.count == 1)
        #expect(contents.passkeys.first.map { Base64URL.encode($0.credentialID) } == second.id)
    }

    @Test("PK-3: excludeCredentials hit is InvalidStateError (exit 45, ASAuthorizationError 1006) and creates nothing; canceled first is NotAllowedError")
    func excluded() throws {
        var contents = try Fixtures.contents()
        let first = try PasskeyAuthenticator.register(
            try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON()), caller: Fixtures.app(),
            responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        let before = contents
        let id = try #require(Base64URL.decode(first.id))
        let options = try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON(exclude: [[9, 9], id], userID: [7]))
        let error = #expect(throws: SWCredError.self) {
            try PasskeyAuthenticator.register(options, caller: Fixtures.app(), responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        }
        #expect(error.flatMap(PasskeyFailure.init) == .excludedCredential)
        #expect(error?.code.status == 1006)
        #expect(error?.message.hasPrefix("InvalidStateError") == true)
        #expect(contents == before)
        let canceled = #expect(throws: SWCredError.self) {
            try PasskeyAuthenticator.register(options, caller: Fixtures.app(), responder: Fixtures.cancel, in: &contents, at: Fixtures.now)
        }
        #expect(canceled.flatMap(PasskeyFailure.init) == .canceled)
        #expect(canceled?.code.status == 1001)
        #expect(contents == before)
    }

    @Test("PK-3: pubKeyCredParams without -7 is NotSupportedError; an empty list means ES256 (WebAuthn §5.1.3 step 10)")
    func algorithms() throws {
        var contents = try Fixtures.contents()
        let rsaOnly = try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON(algs: [-257, -8]))
        let error = #expect(throws: SWCredError.self) {
            try PasskeyAuthenticator.register(rsaOnly, caller: Fixtures.browser(), responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        }
        #expect(error.flatMap(PasskeyFailure.init) == .notSupported)
        #expect(error?.message.hasPrefix("NotSupportedError") == true)
        #expect(error?.code.status == nil)  // a browser's errors carry no ASAuthorizationError code
        #expect(contents.passkeys.isEmpty)
        let empty = try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON(algs: []))
        _ = try PasskeyAuthenticator.register(empty, caller: Fixtures.browser(), responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        #expect(contents.passkeys.count == 1)
    }

    @Test("PK-1: every association failure is SecurityError with Apple's text and creates nothing")
    func associationFailures() throws {
        let options = try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON())
        let approved = try Fixtures.contents()
        let none = try Fixtures.contents(approved: [])
        let denied = try Fixtures.contents(approval: .denied)
        let noAppID = PasskeyCaller.app(
            SWCApp(appID: nil, associatedDomains: ["webcredentials:example.com"]), device: SWCDeviceSettings())
        let cases: [(PasskeyCaller, StoreContents, PasskeyFailure)] = [
            // No webcredentials entry for the RP ID (an applinks one does not count).
            (Fixtures.app(["applinks:example.com", "webcredentials:other.example"]), approved, .notAssociated),
            // The entry is mode-gated and the device is not in developer mode.
            (Fixtures.app(["webcredentials:example.com?mode=developer"], developmentSigned: true), approved, .notAssociated),
            // The entry exists but no record: the site file did not list the app.
            (Fixtures.app(), none, .siteNotApproved),
            // A record the site denied.
            (Fixtures.app(), denied, .siteNotApproved),
            // No application identifier.
            (noAppID, approved, .notAssociated),
        ]
        for (caller, start, expected) in cases {
            var contents = start
            let error = #expect(throws: SWCredError.self) {
                try PasskeyAuthenticator.register(options, caller: caller, responder: Fixtures.allow, in: &contents, at: Fixtures.now)
            }
            #expect(error.flatMap(PasskeyFailure.init) == expected)
            #expect(error?.code.status == 1004)
            #expect(error?.code.domain == SWCredError.authorizationErrorDomain)
            #expect(contents == start)
        }
        let unassociated = #expect(throws: SWCredError.self) {
            var contents = try Fixtures.contents()
            _ = try PasskeyAuthenticator.register(options, caller: Fixtures.app([]), responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        }
        #expect(unassociated?.message == "SecurityError: Application with identifier \(Fixtures.appID) is not associated with domain example.com")
        #expect(unassociated.flatMap(PasskeyFailure.init) == .notAssociated)
    }

    @Test("PK-1: wildcard and developer-mode entries apply as for passwords")
    func wildcardAndModes() throws {
        let options = try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON(rpID: "login.example.com"))
        var contents = StoreContents(creationDate: Fixtures.now)
        try contents.upsertAssociationRecord(
            AssociationRecord(
                service: .webcredentials, appID: Fixtures.appID, host: "example.com", isWildcard: true, siteApproval: .approved))
        _ = try PasskeyAuthenticator.register(
            options, caller: Fixtures.app(["webcredentials:*.example.com"]), responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        #expect(contents.passkeys.count == 1)
        var developer = try Fixtures.contents()
        let device = SWCDeviceSettings(developerMode: true)
        let app = SWCApp(appID: Fixtures.appID, associatedDomains: ["webcredentials:example.com?mode=developer"], developmentSigned: true)
        _ = try PasskeyAuthenticator.register(
            try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON()), caller: .app(app, device: device),
            responder: Fixtures.allow, in: &developer, at: Fixtures.now)
        #expect(developer.passkeys.count == 1)
    }

    @Test("PK-1: a browser may use its host or a registrable suffix, nothing else; an app must name the RP ID")
    func browserOrigins() throws {
        var contents = try Fixtures.contents()
        _ = try PasskeyAuthenticator.register(
            try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON()), caller: Fixtures.browser("https://login.example.com"),
            responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        _ = try PasskeyAuthenticator.register(
            try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON(rpID: nil)), caller: Fixtures.browser("https://shop.example.org"),
            responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        #expect(contents.passkeys.map(\.rpID) == ["example.com", "shop.example.org"])
        for (rpID, origin) in [("example.com", "https://example.org"), ("com", "https://example.com"), ("login.example.com", "https://example.com")] {
            let error = #expect(throws: SWCredError.self) {
                var scratch = contents
                _ = try PasskeyAuthenticator.register(
                    try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON(rpID: rpID)), caller: Fixtures.browser(origin),
                    responder: Fixtures.allow, in: &scratch, at: Fixtures.now)
            }
            #expect(error.flatMap(PasskeyFailure.init) == .originNotAllowed)
        }
        let noRP = #expect(throws: SWCredError.self) {
            var scratch = contents
            _ = try PasskeyAuthenticator.register(
                try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON(rpID: nil)), caller: Fixtures.app(),
                responder: Fixtures.allow, in: &scratch, at: Fixtures.now)
        }
        #expect(noRP.flatMap(PasskeyFailure.init) == .invalidOptions)
    }

    @Test("PK-3: assertion without a passkey is NotAllowedError (exit 44); allowCredentials limits; pick and cancel")
    func assertionChoices() throws {
        var contents = try Fixtures.contents()
        let none = #expect(throws: SWCredError.self) {
            try PasskeyAuthenticator.authenticate(
                try PublicKeyCredentialRequestOptions(json: Fixtures.requestJSON()), caller: Fixtures.app(),
                responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        }
        #expect(none.flatMap(PasskeyFailure.init) == .noCredentials)
        let alice = try PasskeyAuthenticator.register(
            try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON()), caller: Fixtures.app(),
            responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        let bob = try PasskeyAuthenticator.register(
            try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON(userID: [2], userName: "bob@example.com")),
            caller: Fixtures.app(), responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        var seen: [SWCPrompt] = []
        let recorder = Recorder(answer: .choose(1))
        let picked = try PasskeyAuthenticator.authenticate(
            try PublicKeyCredentialRequestOptions(json: Fixtures.requestJSON()), caller: Fixtures.app(),
            responder: recorder, in: &contents, at: Fixtures.now)
        seen = recorder.prompts
        #expect(picked.id == bob.id)
        #expect(seen.first?.accounts == ["alice@example.com", "bob@example.com"])
        #expect(seen.first?.kind == .signInWithPasskey)
        let limited = try PasskeyAuthenticator.authenticate(
            try PublicKeyCredentialRequestOptions(json: Fixtures.requestJSON(allow: [try #require(Base64URL.decode(alice.id))])),
            caller: Fixtures.app(), responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        #expect(limited.id == alice.id)
        let unknown = #expect(throws: SWCredError.self) {
            try PasskeyAuthenticator.authenticate(
                try PublicKeyCredentialRequestOptions(json: Fixtures.requestJSON(allow: [[1, 2, 3]])), caller: Fixtures.app(),
                responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        }
        #expect(unknown.flatMap(PasskeyFailure.init) == .noCredentials)
        let canceled = #expect(throws: SWCredError.self) {
            try PasskeyAuthenticator.authenticate(
                try PublicKeyCredentialRequestOptions(json: Fixtures.requestJSON()), caller: Fixtures.app(),
                responder: Fixtures.cancel, in: &contents, at: Fixtures.now)
        }
        #expect(canceled.flatMap(PasskeyFailure.init) == .canceled)
    }
}

/// Answers every sheet with one answer and keeps the sheets shown.
final class Recorder: SWCPromptResponder {
    private let answer: SWCPromptAnswer
    private let stored = Mutex<[SWCPrompt]>([])
    init(answer: SWCPromptAnswer) { self.answer = answer }
    func respond(to prompt: SWCPrompt) async -> SWCPromptAnswer { answerNow(to: prompt) }
    func answerNow(to prompt: SWCPrompt) -> SWCPromptAnswer {
        stored.withLock { $0.append(prompt) }
        return answer
    }
    var prompts: [SWCPrompt] { stored.withLock { $0 } }
}
