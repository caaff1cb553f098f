import Foundation
import SWCredCore
import SWCredKit
import SWCredSecurity
import SWCredStore
import SWCredTesting
import Testing

/// The suite that configures the process-wide SWCredSecurity context; serialized so that no two
/// tests share it at once.
@Suite("SWCredSecurity: Apple's names and the sample login flow", .serialized)
struct SecurityCompatibilityTests {
    /// Configures the global context with a fresh world and returns it.
    static func configure(
        answers: [SWCPromptAnswer], profile: SWCProfile = .legacy, seed: [(String, String, Int?)] = []
    ) throws -> (InMemoryKeychain, SWCPromptRecorder) {
        let keychain = InMemoryKeychain()
        try keychain.approve(appID: Fixture.appID, domain: "example.com")
        for (account, password, port) in seed {
            try keychain.seed(server: "example.com", account: account, password: password, port: port)
        }
        let user = SWCPromptRecorder(answers: answers)
        let app = SWCApp(appID: Fixture.appID, associatedDomains: ["webcredentials:example.com"], displayName: "Example")
        SWCredSecurityContext.configure(
            SharedWebCredentials(
                backend: keychain, app: app, responder: user, configuration: SWCConfiguration(profile: profile)))
        return (keychain, user)
    }

    @Test("Sample login flow: the saved credential is offered and returned (SWC-7.3)")
    func sampleRequest() async throws {
        let (_, user) = try Self.configure(answers: [.choose(0)], seed: [("alice", "hunter2", nil)])
        let flow = LoginFlow()
        let (username, password): (String?, String?) = await withCheckedContinuation { continuation in
            flow.requestSavedCredential { continuation.resume(returning: ($0, $1)) }
        }
        #expect(username == "alice")
        #expect(password == "hunter2")
        #expect(user.kinds == [.select])
    }

    @Test("Sample login flow: nothing saved or a canceled picker shows the app's own form")
    func sampleNothing() async throws {
        _ = try Self.configure(answers: [])
        let flow = LoginFlow()
        let nothing: String? = await withCheckedContinuation { continuation in
            flow.requestSavedCredential { username, _ in continuation.resume(returning: username) }
        }
        #expect(nothing == nil)
        _ = try Self.configure(answers: [.cancel], seed: [("alice", "hunter2", nil)])
        let canceled: String? = await withCheckedContinuation { continuation in
            flow.requestSavedCredential { username, _ in continuation.resume(returning: username) }
        }
        #expect(canceled == nil)
    }

    @Test("Sample login flow: save, update, delete with the user's answers (SWC-6.9)")
    func sampleSave() async throws {
        let (keychain, user) = try Self.configure(answers: [.allow, .allow, .allow])
        let flow = LoginFlow()
        let saved: Bool = await withCheckedContinuation { continuation in
            flow.saveCredential(username: "alice", password: "pw1") { continuation.resume(returning: $0) }
        }
        #expect(saved)
        #expect(keychain.items.map(\.password) == ["pw1"])
        let updated: Bool = await withCheckedContinuation { continuation in
            flow.saveCredential(username: "alice", password: "pw2") { continuation.resume(returning: $0) }
        }
        #expect(updated)
        #expect(keychain.items.map(\.password) == ["pw2"])
        let deleted: Bool = await withCheckedContinuation { continuation in
            flow.deleteCredential(username: "alice") { continuation.resume(returning: $0) }
        }
        #expect(deleted)
        #expect(keychain.items.isEmpty)
        #expect(user.kinds == [.add, .update, .delete])
        let suggestion = try #require(flow.suggestedPassword())
        #expect(suggestion.split(separator: "-").count == 4)
    }

    @Test("SWC-2.1: errors reach Apple-style code as NSOSStatusErrorDomain CFErrors")
    @available(*, deprecated)
    func errorsAsCFError() async throws {
        _ = try Self.configure(answers: [])
        let error = await withCheckedContinuation { (continuation: CheckedContinuation<Reply, Never>) in
            SecAddSharedWebCredential("other.com" as CFString, "alice" as CFString, "pw" as CFString) {
                continuation.resume(returning: Reply(nil, $0))
            }
        }.pair.1
        let cfError = try #require(error)
        #expect(CFErrorGetCode(cfError) == Int(errSecMissingEntitlement))
        #expect(CFErrorGetDomain(cfError) == kCFErrorDomainOSStatus)
        #expect(CFErrorCopyDescription(cfError) == "other.com not found in com.apple.developer.associated-domains entitlement")
    }

    @Test("SWC-7.1: the dictionary has srvr, acct, spwd and port (legacy); current cancels with 1001")
    @available(*, deprecated)
    func dictionaryKeys() async throws {
        _ = try Self.configure(answers: [.choose(0)], seed: [("alice", "pw", 443)])
        let (array, error) = await withCheckedContinuation { (continuation: CheckedContinuation<Reply, Never>) in
            SecRequestSharedWebCredential("example.com" as CFString, nil) { continuation.resume(returning: Reply($0, $1)) }
        }.pair
        #expect(error == nil)
        let dict = try #require(array?.firstObject as? NSDictionary)
        #expect(dict[kSecAttrServer] as? String == "example.com")
        #expect(dict[kSecAttrAccount] as? String == "alice")
        #expect(dict[kSecSharedPassword] as? String == "pw")
        #expect((dict[kSecAttrPort] as? NSNumber)?.intValue == 443)

        _ = try Self.configure(answers: [.cancel], profile: .current, seed: [("alice", "pw", nil)])
        let (canceled, canceledError) = await withCheckedContinuation { (continuation: CheckedContinuation<Reply, Never>) in
            SecRequestSharedWebCredential(nil, nil) { continuation.resume(returning: Reply($0, $1)) }
        }.pair
        #expect(canceled?.count == 0)
        #expect(canceledError?.domain == ASAuthorizationErrorDomain)
        #expect(canceledError?.code == ASAuthorizationErrorCanceled)
    }

    @Test("The context can come from SWCRED_* environment variables on a real store")
    func environment() throws {
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("swc-env-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: base) }
        let entitlements = base.appendingPathComponent("app.entitlements.json")
        try Data(#"{"application-identifier":"ABCDE12345.com.example.app","com.apple.developer.associated-domains":["webcredentials:example.com"]}"#.utf8)
            .write(to: entitlements)
        let service = try SharedWebCredentials.fromEnvironment([
            "SWCRED_ENTITLEMENTS": entitlements.path,
            "SWCRED_STORE": base.appendingPathComponent("data/keychain.swcred").path,
            "SWCRED_KEY_FILE": base.appendingPathComponent("config/key").path,
            "XDG_STATE_HOME": base.appendingPathComponent("state").path,
            "HOME": base.path,
            "SWCRED_PROFILE": "current",
            "SWCRED_USER": "not-now",
        ])
        #expect(service.app.appID == "ABCDE12345.com.example.app")
        #expect(service.app.associatedDomains == ["webcredentials:example.com"])
        #expect(service.configuration.profile == .current)
        #expect(throws: SWCredError(.missingEntitlement, "")) { try SharedWebCredentials.fromEnvironment([:]) }
        #expect(throws: SWCredError(.invalidParameter, "")) {
            try SharedWebCredentials.fromEnvironment(["SWCRED_APP_ID": "A.b", "SWCRED_USER": "maybe"])
        }
    }
}

/// A completion's arguments, carried back to the test (NSArray and NSError are not Sendable; the
/// completion hands them over and never touches them again).
private struct Reply: @unchecked Sendable {
    let pair: (CFArray?, CFError?)
    init(_ array: CFArray?, _ error: CFError?) { pair = (array, error) }
}
