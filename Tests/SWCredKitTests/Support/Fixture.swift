import SWCredCore
import SWCredKit
import SWCredTesting

/// One app, one in-memory keychain, one recorded user: the world of a Shared Web Credentials test.
struct Fixture {
    static let appID = "ABCDE12345.com.example.app"

    let keychain: InMemoryKeychain
    let user: SWCPromptRecorder
    let swc: SharedWebCredentials

    /// Builds the world: `entitlement` strings (without the app ID), `approved` domains (as written in
    /// the entitlement) approved by their sites, `answers` for the prompts, in order.
    init(
        entitlement: [String] = ["webcredentials:example.com"],
        approved: [String] = ["example.com"],
        answers: [SWCPromptAnswer] = [],
        responder: (any SWCPromptResponder)? = nil,
        appID: String? = Fixture.appID,
        settings: SWCDeviceSettings = SWCDeviceSettings(),
        configuration: SWCConfiguration = SWCConfiguration()
    ) throws {
        keychain = InMemoryKeychain(settings: settings)
        user = SWCPromptRecorder(wrapping: responder ?? SWCScriptedResponder(answers))
        for domain in approved {
            try keychain.approve(appID: appID ?? Fixture.appID, domain: domain)
        }
        let app = SWCApp(appID: appID, associatedDomains: entitlement, displayName: "Example")
        swc = SharedWebCredentials(backend: keychain, app: app, responder: user, configuration: configuration)
    }

    /// The status the completion received (nil on success).
    func status(_ report: SWCAddReport) -> Int? { report.completionError?.code.status }
}

extension SWCAddReport {
    /// The OSStatus the completion received, 0 for nil.
    var osStatus: Int { completionError.map { $0.code.status ?? -1 } ?? 0 }
}

extension SWCRequestReport {
    /// The OSStatus (or AS code) the completion received, 0 for nil.
    var status: Int { error.map { $0.code.status ?? -1 } ?? 0 }
}
