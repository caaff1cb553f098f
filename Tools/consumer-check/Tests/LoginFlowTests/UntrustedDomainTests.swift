import SWCredKit
import SWCredTesting
import Testing

/// Scenario 3: an untrusted domain. What the app receives in each situation (the table of the
/// SWCredKit documentation's "What a test asserts on").
@Suite("An untrusted domain")
struct UntrustedDomainTests {
    /// The app asks for a domain, and what it gets back.
    static func request(
        _ fqdn: String, on keychain: InMemoryKeychain, app: SWCApp = TacoShop.app,
        configuration: SWCConfiguration = SWCConfiguration()
    ) async -> (error: SWCredError?, prompts: [SWCPrompt]) {
        let user = SWCPromptRecorder(answers: [.choose(0)])
        let swc = SharedWebCredentials(backend: keychain, app: app, responder: user, configuration: configuration)
        do {
            _ = try await swc.requestSharedWebCredential(fqdn, account: nil)
            return (nil, user.prompts)
        } catch {
            return (error, user.prompts)
        }
    }

    @Test("SWC-6.5: a domain the entitlement does not name is errSecMissingEntitlement (-34018)")
    func notInEntitlement() async throws {
        let keychain = try TacoShop.trustedKeychain()
        try keychain.seed(server: "elsewhere.example", account: "alice@example.com", password: "pw")

        let (error, prompts) = await Self.request("elsewhere.example", on: keychain)

        #expect(error?.code == .missingEntitlement)
        #expect(error?.errorCode == -34018)
        #expect(error?.errorDomain == "NSOSStatusErrorDomain")
        #expect(prompts.isEmpty)
    }

    @Test("SWC-7.3 step 6: the site has not approved the app and an item is saved: errSecAuthFailed (-25293)")
    func notApprovedWithItem() async throws {
        let keychain = InMemoryKeychain()  // no association file lists the app
        try keychain.seed(server: "tacos.example", account: "alice@example.com", password: "pw")

        let (error, prompts) = await Self.request("tacos.example", on: keychain)

        #expect(error?.code == .siteNotApproved)
        #expect(error?.errorCode == -25293)
        #expect(prompts.isEmpty)
    }

    @Test("SWC-7.3 step 6: the site has not approved the app and nothing is saved: errSecItemNotFound (-25300)")
    func notApprovedWithoutItem() async throws {
        let (error, _) = await Self.request("tacos.example", on: InMemoryKeychain())

        #expect(error?.code == .itemNotFound)
        #expect(error?.errorCode == -25300)
    }

    @Test("SWC-6.6: saving for a site that has not approved the app is errSecAuthFailed (-25293), nothing saved")
    func addNotApproved() async throws {
        let keychain = InMemoryKeychain()
        let user = SWCPromptRecorder(answers: [.allow])
        let swc = SharedWebCredentials(backend: keychain, app: TacoShop.app, responder: user)

        await #expect(throws: SWCredError(.siteNotApproved, "")) {
            try await swc.addSharedWebCredential("tacos.example", account: "alice@example.com", password: "pw")
        }
        #expect(user.prompts.isEmpty)
        #expect(keychain.credentials.isEmpty)
    }

    @Test("SWC-7.4 step 4: in the current profile nothing to offer is ASAuthorizationError 1001, no picker")
    func currentProfileCanceled() async throws {
        let keychain = InMemoryKeychain()
        try keychain.seed(server: "elsewhere.example", account: "alice@example.com", password: "pw")

        let (error, prompts) = await Self.request(
            "tacos.example", on: keychain, configuration: SWCConfiguration(profile: .current))

        #expect(error?.code == .canceled)
        #expect(error?.errorCode == 1001)
        #expect(error?.errorDomain == "com.apple.AuthenticationServices.AuthorizationError")
        #expect(prompts.isEmpty)
    }

    @Test("SWC-6.3 step 1: with Password AutoFill off every call is errSecBadReq (-909)")
    func autoFillOff() async throws {
        let keychain = InMemoryKeychain(settings: SWCDeviceSettings(autoFillEnabled: false))
        try keychain.approve(appID: TacoShop.appID, domain: "tacos.example")
        try keychain.seed(server: "tacos.example", account: "alice@example.com", password: "pw")

        let (error, _) = await Self.request("tacos.example", on: keychain)

        #expect(error?.code == .autoFillDisabled)
        #expect(error?.errorCode == -909)
    }
}
