import SWCredKit
import SWCredTesting
import Testing

/// Scenario 1: a saved credential is offered.
@Suite("A saved credential is offered")
struct SavedCredentialTests {
    @Test("SWC-7.3 step 5: the picker lists Safari's items latest first, and the chosen one comes back")
    func pickerOffersSavedAccounts() async throws {
        let keychain = try TacoShop.trustedKeychain()
        try keychain.seed(server: "tacos.example", account: "alice@example.com", password: "correct-horse")
        try keychain.seed(server: "tacos.example", account: "bob@example.com", password: "battery-staple")
        let user = SWCPromptRecorder(answers: [.choose(1)])
        let swc = SharedWebCredentials(backend: keychain, app: TacoShop.app, responder: user)

        let credentials = try await swc.requestSharedWebCredential("tacos.example", account: nil)

        // Items saved with Safari's comment `default` are each put at the head: bob, saved last, first.
        let picker = try #require(user.pickers.first)
        #expect(picker.accounts == ["bob@example.com", "alice@example.com"])
        #expect(picker.title == "Select a Safari Saved Password to Use With \u{201C}Taco Shop\u{201D}")
        #expect(user.entries.map(\.answer) == [.choose(1)])
        #expect(
            credentials == [
                SharedWebCredential(server: "tacos.example", account: "alice@example.com", password: "correct-horse")
            ])
    }

    @Test("SWC-7.1: a ported credential comes back with its port, the same Int? the keychain shows")
    func portedCredential() async throws {
        let keychain = try TacoShop.trustedKeychain()
        try keychain.seed(server: "tacos.example", account: "alice@example.com", password: "correct-horse", port: 8443)
        let swc = SharedWebCredentials(
            backend: keychain, app: TacoShop.app, responder: SWCPromptRecorder(answers: [.choose(0)]))

        let credential = try #require(
            try await swc.requestSharedWebCredential("tacos.example:8443", account: nil).first)

        #expect(credential.port == 8443)
        #expect(credential.port == keychain.items.first?.specifiedPort)
        #expect(keychain.credentials == [credential])
    }

    @Test("SWC-7.3 step 9: a canceled picker gives an empty array and no error (legacy)")
    func canceledPicker() async throws {
        let keychain = try TacoShop.trustedKeychain()
        try keychain.seed(server: "tacos.example", account: "alice@example.com", password: "correct-horse")
        let user = SWCPromptRecorder(answers: [.cancel])
        let swc = SharedWebCredentials(backend: keychain, app: TacoShop.app, responder: user)

        let credentials = try await swc.requestSharedWebCredential("tacos.example", account: nil)

        #expect(credentials.isEmpty)
        #expect(user.kinds == [.select])
    }
}
