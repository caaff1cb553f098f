import SWCredKit
import SWCredTesting
import Testing

/// Scenario 2: the password is saved after sign-up.
@Suite("A password saved after sign-up")
struct SignUpTests {
    @Test("SWC-6.9: a new account asks ADD; allowed, the credential is saved as Safari would")
    func savedAfterSignUp() async throws {
        let keychain = try TacoShop.trustedKeychain()
        let user = SWCPromptRecorder(answers: [.allow])
        let swc = SharedWebCredentials(backend: keychain, app: TacoShop.app, responder: user)

        try await swc.addSharedWebCredential("Tacos.Example", account: "carol@example.com", password: "s3cret-Pass")

        #expect(
            keychain.credentials == [
                SharedWebCredential(server: "tacos.example", account: "carol@example.com", password: "s3cret-Pass")
            ])
        let prompt = try #require(user.prompts.first)
        #expect(user.kinds == [.add])
        #expect(prompt.domain == "tacos.example")
        #expect(prompt.allowButton == "Save Password")
        #expect(prompt.message.hasPrefix("Securely store your password"))
        let item = try #require(keychain.items.first)
        #expect(item.comment == "default")
    }

    @Test("SWC-6.10: the report tells a decline apart, which the completion does not")
    func declineIsVisibleInTheReport() async throws {
        let keychain = try TacoShop.trustedKeychain()
        let swc = SharedWebCredentials(
            backend: keychain, app: TacoShop.app, responder: SWCPromptRecorder(answers: [.notNow]))

        let report = await swc.add(fqdn: "tacos.example", account: "carol@example.com", password: "s3cret-Pass")

        #expect(report.outcome == .declined)
        #expect(report.completionError == nil)
    }

    @Test("SWC-6.7: a \"Passwords not saved\" entry makes the add fail with errSecDuplicateItem (-25299)")
    func passwordsNotSaved() async throws {
        let keychain = try TacoShop.trustedKeychain()
        try keychain.seedPasswordsNotSaved(host: "tacos.example")
        let user = SWCPromptRecorder(answers: [.allow])
        let swc = SharedWebCredentials(backend: keychain, app: TacoShop.app, responder: user)

        let error = await #expect(throws: SWCredError.self) {
            try await swc.addSharedWebCredential("tacos.example", account: "carol@example.com", password: "pw")
        }

        #expect(error?.code == .duplicateItem)
        #expect(error?.errorCode == -25299)
        #expect(user.prompts.isEmpty)
        #expect(keychain.credentials.isEmpty)
    }
}
