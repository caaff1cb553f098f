import Foundation
import SWCredCore
import SWCredKit
import SWCredStore
import Testing
@testable import SWCredPasskeys

/// Passkey sheets are asked through the Kit's one prompt vocabulary: an `SWCPrompt`, answered by
/// any `SWCPromptResponder` without waiting (the sheet is shown inside the store transaction).
@Suite("Passkey sheets through the one prompt responder")
struct PasskeyPromptTests {
    @Test("PK-1 step 4: the save sheet is a createPasskey prompt with the caller, the RP ID and the account; the policy responder allows it")
    func saveSheet() throws {
        var contents = try Fixtures.contents()
        let scripted = SWCScriptedResponder([.allow])
        let recorder = Recorder(answer: .allow)
        _ = try PasskeyAuthenticator.register(
            try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON()), caller: Fixtures.app(),
            responder: recorder, in: &contents, at: Fixtures.now)
        let sheet = try #require(recorder.prompts.first)
        #expect(sheet.kind == .createPasskey && !sheet.kind.isPicker)
        #expect(sheet.domain == "example.com" && sheet.accounts == ["alice@example.com"])
        #expect(SWCPolicyResponder().answerNow(to: sheet) == .allow)
        #expect(scripted.answerNow(to: sheet) == .allow)
        #expect(scripted.answerNow(to: sheet) == .cancel)
    }

    @Test("PK-1 step 4: a responder that can only wait (SWCPendingResponder) and Not Now both dismiss the sheet: NotAllowedError, nothing written")
    func waitingResponderCancels() throws {
        for responder in [SWCPendingResponder() as any SWCPromptResponder, Recorder(answer: .notNow)] {
            var contents = try Fixtures.contents()
            let before = contents
            let error = #expect(throws: SWCredError.self) {
                try PasskeyAuthenticator.register(
                    try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON()), caller: Fixtures.app(),
                    responder: responder, in: &contents, at: Fixtures.now)
            }
            #expect(error.flatMap(PasskeyFailure.init) == .canceled)
            #expect(contents == before)
        }
    }

    @Test("PK-1 / PK-3: the sign-in sheet is a picker of the passkeys' accounts; the policy responder's pick rule chooses among them")
    func signInSheet() throws {
        var contents = try Fixtures.contents()
        for (id, name) in [([1] as [UInt8], "alice@example.com"), ([2], "bob@example.com")] {
            _ = try PasskeyAuthenticator.register(
                try PublicKeyCredentialCreationOptions(json: Fixtures.creationJSON(userID: id, userName: name)),
                caller: Fixtures.app(), responder: Fixtures.allow, in: &contents, at: Fixtures.now)
        }
        let bob = SWCPolicyResponder(pick: .account("bob@example.com"))
        let response = try PasskeyAuthenticator.authenticate(
            try PublicKeyCredentialRequestOptions(json: Fixtures.requestJSON()), caller: Fixtures.app(),
            responder: bob, in: &contents, at: Fixtures.now)
        #expect(response.userName == "bob@example.com")
        let recorder = Recorder(answer: .allow)
        let first = try PasskeyAuthenticator.authenticate(
            try PublicKeyCredentialRequestOptions(json: Fixtures.requestJSON()), caller: Fixtures.app(),
            responder: recorder, in: &contents, at: Fixtures.now)
        #expect(first.userName == "alice@example.com")
        #expect(recorder.prompts.map(\.kind) == [.signInWithPasskey])
        #expect(recorder.prompts.first?.kind.isPicker == true)
        #expect(recorder.prompts.first?.accounts == ["alice@example.com", "bob@example.com"])
        // A name not offered answers choose(-1): NotAllowedError "not offered" (exit 44), not cancel.
        let missing = #expect(throws: SWCredError.self) {
            try PasskeyAuthenticator.authenticate(
                try PublicKeyCredentialRequestOptions(json: Fixtures.requestJSON()), caller: Fixtures.app(),
                responder: PasskeyUser(cancels: false, pick: "carol"), in: &contents, at: Fixtures.now)
        }
        #expect(missing.flatMap(PasskeyFailure.init) == .noCredentials)
    }
}
