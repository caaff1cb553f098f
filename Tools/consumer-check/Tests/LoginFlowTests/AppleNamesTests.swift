import Foundation
import SWCredSecurity
import SWCredTesting
import Testing

/// The login code as Apple's documentation writes it, with `import SWCredSecurity` in place of
/// `import Security`. `SWCredSecurityContext.configure` is process-wide, so the suite is
/// `.serialized` (and no other suite of this target configures it).
///
/// `SecRequestSharedWebCredential` and `SecAddSharedWebCredential` are deprecated, as on a device;
/// a test that calls them is marked deprecated itself, so that a build with warnings as errors
/// stays clean.
@Suite("Apple's names", .serialized)
struct AppleNamesTests {
    /// The app with one `webcredentials` entry, so that a request without a domain searches one domain.
    static let app = SWCApp(
        appID: TacoShop.appID, associatedDomains: ["webcredentials:tacos.example"], displayName: "Taco Shop")

    /// What `SecRequestSharedWebCredential`'s completion received.
    struct Received: Sendable {
        var account: String?
        var password: String?
        var code: Int?
        var domain: String?
    }

    @available(*, deprecated, message: "calls SecRequestSharedWebCredential, as the app does")
    static func requestAsTheAppDoes() async -> Received {
        await withCheckedContinuation { continuation in
            SecRequestSharedWebCredential(nil, nil) { credentials, error in
                var received = Received(
                    code: error.map { CFErrorGetCode($0) }, domain: error.map { CFErrorGetDomain($0) })
                if let credentials, CFArrayGetCount(credentials) > 0 {
                    let credential = unsafeBitCast(CFArrayGetValueAtIndex(credentials, 0), to: CFDictionary.self)
                    let dictionary = credential as? [String: Any]
                    received.account = dictionary?[kSecAttrAccount] as? String
                    received.password = dictionary?[kSecSharedPassword] as? String
                }
                continuation.resume(returning: received)
            }
        }
    }

    @available(*, deprecated, message: "calls SecRequestSharedWebCredential")
    @Test("SWC-7.3: SecRequestSharedWebCredential hands the chosen credential to the completion")
    func savedCredential() async throws {
        let keychain = try TacoShop.trustedKeychain()
        try keychain.seed(server: "tacos.example", account: "alice@example.com", password: "correct-horse")
        let user = SWCPromptRecorder(answers: [.choose(0)])
        SWCredSecurityContext.configure(SharedWebCredentials(backend: keychain, app: Self.app, responder: user))
        defer { SWCredSecurityContext.reset() }

        let received = await Self.requestAsTheAppDoes()

        #expect(received.account == "alice@example.com")
        #expect(received.password == "correct-horse")
        #expect(received.code == nil)
        #expect(user.kinds == [.select])
    }

    @available(*, deprecated, message: "calls SecRequestSharedWebCredential")
    @Test("SWC-2.1: an untrusted domain reaches the completion as NSOSStatusErrorDomain -25293")
    func untrusted() async throws {
        let keychain = InMemoryKeychain()
        try keychain.seed(server: "tacos.example", account: "alice@example.com", password: "correct-horse")
        SWCredSecurityContext.configure(
            SharedWebCredentials(backend: keychain, app: Self.app, responder: SWCPromptRecorder(answers: [])))
        defer { SWCredSecurityContext.reset() }

        let received = await Self.requestAsTheAppDoes()

        #expect(received.code == Int(errSecAuthFailed))
        #expect(received.domain == kCFErrorDomainOSStatus)
        #expect(received.account == nil)
    }
}
