import Foundation
import SWCredCore
import SWCredStore
import Testing
@testable import SWCredKit

/// ``SWCAppSession`` (the app path of `add`, `request`, `batch`) and ``TransactionBackend``.
@Suite("App session and transaction backend")
struct AppSessionTests {
    static func storeSession() throws -> (StoreSession, URL) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("swcred-appsession-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let session = StoreSession(StoreSession.Configuration(
            path: base.appendingPathComponent("keychain.swcred").path, keyFilePath: base.appendingPathComponent("key").path,
            options: StoreOptions(stateDirectory: base.appendingPathComponent("state").path)))
        return (session, base)
    }

    @Test("cli.md: the first use creates the store; the configuration reaches every service")
    func openCreatesStore() throws {
        let (session, base) = try Self.storeSession()
        defer { try? FileManager.default.removeItem(at: base) }
        #expect(!session.storeExists)
        var configuration = SWCConfiguration()
        configuration.forceDeveloperMode = true
        let app = try SWCAppSession.open(
            session: session, appID: Fixture.appID, entitlements: nil, configuration: configuration)
        #expect(session.storeExists)
        #expect(app.app.associatedDomains.isEmpty)
        #expect(app.service(responder: SWCPolicyResponder(), profile: .current).configuration.profile == .current)
        #expect(app.service(responder: SWCPolicyResponder()).configuration.forceDeveloperMode)
    }

    @Test("SWC-6 on a transaction backend: changes stay in memory and are counted; a failed change is not")
    func transactionBackend() async throws {
        let (session, base) = try Self.storeSession()
        defer { try? FileManager.default.removeItem(at: base) }
        let store = try session.storeCreatingIfMissing()
        try store.transaction { contents, _ in
            try contents.upsertAssociationRecord(
                AssociationRecord(service: .webcredentials, appID: Fixture.appID, host: "example.com", siteApproval: .approved))
        }
        let open = try store.beginTransaction()
        let working = TransactionBackend(contents: open.contents, clock: store.options.clock)
        let app = SWCApp(appID: Fixture.appID, associatedDomains: ["webcredentials:example.com"])
        let swc = SharedWebCredentials(backend: working, app: app, responder: SWCPolicyResponder(confirmation: .allow))
        let report = await swc.add(fqdn: "example.com", account: "alice", password: "pw")
        #expect(report.outcome == .added)
        #expect(working.changes >= 1)
        let before = working.changes
        #expect(throws: SWCredError(.invalidParameter, "")) {
            try working.modify { (_: inout StoreContents, _: Date) throws(SWCredError) in
                throw SWCredError(.invalidParameter, "refused")
            }
        }
        #expect(working.changes == before)
        // Nothing reached the file before the commit.
        #expect(try session.read().contents.items.isEmpty)
        open.contents = working.contents
        try open.commit()
        #expect(try session.read().contents.items.map(\.account) == ["alice"])
    }
}
