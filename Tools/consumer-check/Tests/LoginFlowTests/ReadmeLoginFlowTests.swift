import SWCredKit
import SWCredTesting
import Testing

// README walk-through (c): this file is shown verbatim in README.md (a test checks they agree).
// It is a test of Tools/consumer-check, a package that depends on swcred as yours would.
@Suite("README: a login flow against the in-memory keychain")
struct ReadmeLoginFlowTests {
    @Test("SWC-7.3: the app offers the saved credential, and the user saw one picker")
    func loginWithSavedCredential() async throws {
        // The device: one saved credential; tacos.example's file lists the app.
        let keychain = InMemoryKeychain()
        try keychain.seed(server: "tacos.example", account: "alice@example.com", password: "correct-horse")
        try keychain.approve(appID: "ABCDE12345.com.example.tacoshop", domain: "tacos.example")

        // The app, and a user who picks the first credential offered.
        let app = SWCApp(
            appID: "ABCDE12345.com.example.tacoshop",
            associatedDomains: ["webcredentials:tacos.example"])
        let user = SWCPromptRecorder(answers: [.choose(0)])
        let swc = SharedWebCredentials(backend: keychain, app: app, responder: user)

        // The login code under test.
        let credentials = try await swc.requestSharedWebCredential("tacos.example", account: nil)

        #expect(credentials.map(\.account) == ["alice@example.com"])
        #expect(credentials.first?.password == "correct-horse")
        #expect(user.kinds == [.select])
        #expect(user.prompts.first?.accounts == ["alice@example.com"])
    }

    @Test("SWC-6.10: saving after sign-up asks the user; declining saves nothing and is no error")
    func signUpDeclined() async throws {
        let keychain = InMemoryKeychain()
        try keychain.approve(appID: "ABCDE12345.com.example.tacoshop", domain: "tacos.example")
        let app = SWCApp(
            appID: "ABCDE12345.com.example.tacoshop",
            associatedDomains: ["webcredentials:tacos.example"])
        let user = SWCPromptRecorder(answers: [.notNow])
        let swc = SharedWebCredentials(backend: keychain, app: app, responder: user)

        // Apple reports success to the app even when the user says "Not Now".
        try await swc.addSharedWebCredential("tacos.example", account: "bob@example.com", password: "s3cret-Pass")

        #expect(user.kinds == [.add])
        #expect(keychain.credentials.isEmpty)
    }
}
