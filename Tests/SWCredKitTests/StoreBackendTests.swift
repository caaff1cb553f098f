import Foundation
import SWCredCore
import SWCredKit
import SWCredStore
import SWCredTesting
import Testing

@Suite("The encrypted store as the backend")
struct StoreBackendTests {
    /// A fresh key-file store in a private temporary folder.
    static func makeStore() throws -> (KeychainStore, String, URL) {
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("swc-kit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let storePath = base.appendingPathComponent("data/keychain.swcred").path
        let keyPath = base.appendingPathComponent("config/key").path
        let options = StoreOptions(stateDirectory: base.appendingPathComponent("state").path)
        let store = try KeychainStore.create(at: storePath, keySource: .keyFile(path: keyPath), options: options)
        return (store, keyPath, base)
    }

    @Test("SWC-6 / SWC-7 on the encrypted store: add, request, Not Now and settings persist in the file")
    @available(*, deprecated)
    func roundTrip() async throws {
        let (store, keyPath, base) = try Self.makeStore()
        defer { try? FileManager.default.removeItem(at: base) }
        try store.transaction { contents, _ in
            try contents.upsertAssociationRecord(
                AssociationRecord(service: .webcredentials, appID: Fixture.appID, host: "example.com", siteApproval: .approved))
        }
        let user = SWCPromptRecorder(answers: [.allow, .choose(0), .notNow])
        let app = SWCApp(appID: Fixture.appID, associatedDomains: ["webcredentials:example.com"])
        let swc = SharedWebCredentials(backend: StoreBackend(store: store), app: app, responder: user)
        try await swc.addSharedWebCredential("Example.com", account: "alice", password: "pw1")
        let credentials = try await swc.requestSharedWebCredential("example.com", account: nil)
        #expect(credentials == [SharedWebCredential(server: "example.com", account: "alice", password: "pw1")])
        try await swc.addSharedWebCredential("example.com", account: "alice", password: nil)  // declined: Not Now
        #expect(user.kinds == [.add, .select, .delete])

        // Reopen the file: the item, and the user approval set by Not Now, are there.
        let reopened = try KeychainStore.open(
            at: store.path, keySource: .keyFile(path: keyPath),
            options: StoreOptions(stateDirectory: base.appendingPathComponent("state").path))
        let contents = try reopened.snapshot().contents
        #expect(contents.items.map(\.label) == ["example.com (alice)"])
        let record = contents.associationRecord(
            forKey: AssociationRecord.Key(service: .webcredentials, appID: Fixture.appID, host: "example.com"))
        #expect(record?.userApproval == .denied)
        #expect(record?.siteApproval == .approved)

        // AutoFill off in the store's settings gives errSecBadReq.
        try store.transaction { contents, _ in contents.settings.autoFillEnabled = false }
        await #expect(throws: SWCredError(.autoFillDisabled, "")) {
            try await swc.addSharedWebCredential("example.com", account: "bob", password: "pw")
        }
    }

    @Test("SWC-3.4 / store.md §7: two instances on one store file, 40 concurrent adds, no lost update")
    func twoInstancesNoLostUpdate() async throws {
        let (store, keyPath, base) = try Self.makeStore()
        defer { try? FileManager.default.removeItem(at: base) }
        try store.transaction { contents, _ in
            try contents.upsertAssociationRecord(
                AssociationRecord(service: .webcredentials, appID: Fixture.appID, host: "example.com", siteApproval: .approved))
        }
        let second = try KeychainStore.open(
            at: store.path, keySource: .keyFile(path: keyPath),
            options: StoreOptions(lockTimeout: .seconds(30), stateDirectory: base.appendingPathComponent("state").path))
        let app = SWCApp(appID: Fixture.appID, associatedDomains: ["webcredentials:example.com"])
        let services = [store, second].map {
            SharedWebCredentials(
                backend: StoreBackend(store: $0), app: app, responder: SWCPolicyResponder(),
                configuration: SWCConfiguration(addConfirmation: .silent))
        }
        let outcomes = await withTaskGroup(of: SWCAddOutcome.self) { group in
            for index in 0..<40 {
                let service = services[index % 2]
                group.addTask { await service.add(fqdn: "example.com", account: "user\(index)", password: "pw").outcome }
            }
            var all: [SWCAddOutcome] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes == Array(repeating: .added, count: 40))
        let accounts = Set(try store.snapshot().contents.items.map(\.account))
        #expect(accounts == Set((0..<40).map { "user\($0)" }))
    }

    @Test("SWC-8.1: SecCreateSharedWebCredentialPassword gives xxx-xxx-xxx-xxx passwords")
    func createPassword() throws {
        var seen = Set<String>()
        for _ in 0..<50 {
            let password = try #require(SharedWebCredentials.createSharedWebCredentialPassword())
            let groups = password.split(separator: "-", omittingEmptySubsequences: false)
            #expect(password.count == 15)
            #expect(groups.count == 4 && groups.allSatisfy { $0.count == 3 })
            seen.insert(password)
        }
        #expect(seen.count == 50)
    }
}
