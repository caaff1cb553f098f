import Foundation
import SWCredAssociation
import SWCredCore
import SWCredStore
import Testing
@testable import SWCredDaemon

/// ``AssociationSync``: `swcred associations` as one library call (AD-5.2 to AD-5.6).
@Suite("Association sync")
struct AssociationSyncTests {
    /// A key-file store session in a private folder (no store file yet).
    static func session() throws -> (StoreSession, URL) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("swcred-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let session = StoreSession(StoreSession.Configuration(
            path: base.appendingPathComponent("keychain.swcred").path, keyFilePath: base.appendingPathComponent("key").path,
            options: StoreOptions(stateDirectory: base.appendingPathComponent("state").path)))
        return (session, base)
    }

    /// The scope of a folder source, as the command's factory gives it.
    static func scope(_ sites: Sites) -> AssociationSync.SourceScope {
        { _, body in await body(sites.source) }
    }

    @Test("AD-5.6: nothing to change lists nothing and creates no store")
    func listOnly() async throws {
        let (session, base) = try Self.session()
        defer { try? FileManager.default.removeItem(at: base) }
        let report = try await AssociationSync().run(session: session, source: nil)
        #expect(report.records.isEmpty)
        #expect(!session.storeExists)
    }

    @Test("AD-5.2: install without a source creates unchecked records; reinstall recreates them")
    func installWithoutSource() async throws {
        let (session, base) = try Self.session()
        defer { try? FileManager.default.removeItem(at: base) }
        var sync = AssociationSync()
        sync.install = try app(["webcredentials:example.com", "applinks:example.com", "webcredentials:other.example"])
        let report = try await sync.run(session: session, source: nil)
        #expect(report.installed == 3)
        #expect(report.checked == 0)
        #expect(report.records.count == 3)
        #expect(report.records.allSatisfy { $0.siteApproval == .unspecified && $0.lastChecked == .distantPast })
        // The app's entitlement lost a domain: the record goes; the others stay.
        sync.install = try app(["webcredentials:example.com", "applinks:example.com"])
        #expect(try await sync.run(session: session, source: nil).records.count == 2)
    }

    @Test("AD-5.3: a refresh from a source approves the listed app; --force checks records not due; reset empties")
    func refreshAndReset() async throws {
        let (session, base) = try Self.session()
        defer { try? FileManager.default.removeItem(at: base) }
        let sites = try Sites()
        try sites.serve("example.com", webcredentials([appID]))
        var sync = AssociationSync()
        sync.install = try app(["webcredentials:example.com", "webcredentials:missing.example"])
        let first = try await sync.run(session: session, source: Self.scope(sites))
        #expect(first.checked == 2)
        let approvals = Dictionary(uniqueKeysWithValues: first.records.map { ($0.host, $0.siteApproval) })
        #expect(approvals["example.com"] == .approved)
        #expect(approvals["missing.example"] != .approved)
        #expect(first.records.first { $0.host == "missing.example" }?.lastError != nil)

        var refresh = AssociationSync()
        #expect(try await refresh.run(session: session, source: Self.scope(sites)).checked == 0)  // none due yet
        refresh.force = true
        refresh.service = .webcredentials
        #expect(try await refresh.run(session: session, source: Self.scope(sites)).checked == 2)

        var reset = AssociationSync()
        reset.reset = true
        reset.appID = otherAppID
        #expect(try await reset.run(session: session, source: nil).removed == 0)
        reset.appID = appID
        let emptied = try await reset.run(session: session, source: nil)
        #expect(emptied.removed == 2)
        #expect(emptied.records.isEmpty)
    }
}
