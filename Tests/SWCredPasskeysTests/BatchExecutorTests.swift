import Foundation
import SWCredCore
import SWCredStore
import Testing
@testable import SWCredKit
@testable import SWCredPasskeys

/// The batch's library side: lines typed as ``BatchOperation``, groups run by ``BatchExecutor`` in
/// one store transaction, and ``BatchLineReader``'s groups.
@Suite("Batch: typed lines, one store transaction per group")
struct BatchExecutorTests {
    /// A key-file store in a private folder with `example.com` approved for the app, opened as the app.
    final class World {
        let base: URL
        let storeSession: StoreSession
        let app: SWCAppSession

        init() throws {
            base = FileManager.default.temporaryDirectory.appendingPathComponent("swcred-batch-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            storeSession = StoreSession(StoreSession.Configuration(
                path: base.appendingPathComponent("keychain.swcred").path, keyFilePath: base.appendingPathComponent("key").path,
                options: StoreOptions(stateDirectory: base.appendingPathComponent("state").path)))
            try storeSession.modify(createIfMissing: true) { (contents: inout StoreContents, _: Date) throws(SWCredError) in
                try contents.upsertAssociationRecord(AssociationRecord(
                    service: .webcredentials, appID: Fixtures.appID, host: "example.com", siteApproval: .approved,
                    source: .downloaded))
            }
            let store = try storeSession.store()
            app = SWCAppSession(
                backend: StoreBackend(store: store),
                app: SWCApp(appID: Fixtures.appID, associatedDomains: ["webcredentials:example.com"], displayName: "Shop"),
                entitlements: nil, configuration: SWCConfiguration())
        }

        deinit { try? FileManager.default.removeItem(at: base) }

        func run(_ lines: [String]) async -> [BatchOutcome] {
            let executor = BatchExecutor(session: app, requestProfile: nil, maximumLineBytes: BatchLineReader.defaultMaximumLineBytes)
            return await executor.run(lines.enumerated().map { ($0.offset + 1, $0.element) })
        }
    }

    @Test("SWC-6 / SWC-7: a group's lines run in order on one transaction; a later line sees an earlier add")
    func groupSeesEarlierLines() async throws {
        let world = try World()
        let outcomes = await world.run([
            #"{"id":1,"op":"add","domain":"example.com","account":"alice","password":"pw-1"}"#,
            #"{"id":"two","op":"request","domain":"example.com","pick":"first"}"#,
            #"{"id":3,"op":"add","domain":"example.com","account":"bob","generate":true}"#,
        ])
        #expect(outcomes.map(\.id) == [.number(1), .string("two"), .number(3)])
        guard case .success(.add(let added)) = outcomes[0].result else { Issue.record("add failed"); return }
        #expect(added.outcome == .added)
        guard case .success(.request(let credentials, let error)) = outcomes[1].result else {
            Issue.record("request failed: \(outcomes[1].result)")
            return
        }
        #expect(error == nil)
        #expect(credentials == [SharedWebCredential(server: "example.com", account: "alice", password: "pw-1")])
        // The group was written once, durably: a fresh read of the file has both items.
        let items = try world.storeSession.read().contents.items
        #expect(Set(items.map(\.account)) == ["alice", "bob"])
        let generated = try #require(items.first { $0.account == "bob" })
        #expect(String(decoding: generated.secret ?? [], as: UTF8.self).split(separator: "-").count == 4)  // SWC-8.1
    }

    @Test("bad lines: not a request (no id), duplicate keys, unknown op, add's password sources; the group goes on")
    func badLinesAreOutcomes() async throws {
        let world = try World()
        let outcomes = await world.run([
            "not json",
            #"{"id":2,"op":"add","account":"a","account":"b","password":"x"}"#,
            #"{"id":3,"op":"fly"}"#,
            #"{"id":4,"op":"add","domain":"example.com","password":"x"}"#,
            #"{"id":5,"op":"add","domain":"example.com","account":"eve","password":"x","delete":true}"#,
            #"{"id":6,"op":"add","domain":"example.com","account":"eve","password":"x","user":"maybe"}"#,
            #"{"id":7,"op":"add","domain":"example.com","account":"eve","password":"x","user":"not-now"}"#,
        ])
        func failure(_ index: Int) -> SWCredError? {
            if case .failure(let error) = outcomes[index].result { return error }
            return nil
        }
        #expect(outcomes[0].id == nil && outcomes[0].op == nil && failure(0)?.code == .malformedInput)
        #expect(failure(1)?.message.contains("appears more than once") == true)
        #expect(outcomes[1].id == nil)
        #expect(outcomes[2].id == .number(3) && failure(2)?.message.contains("unknown op") == true)
        #expect(failure(3)?.message.contains("add needs \"account\"") == true)
        #expect(failure(4)?.message.contains("exactly one of") == true)
        #expect(failure(5)?.code == .invalidParameter)
        guard case .success(.add(let declined)) = outcomes[6].result else { Issue.record("not-now failed"); return }
        #expect(declined.outcome == .declined)
        #expect(try world.storeSession.read().contents.items.isEmpty)
    }

    @Test("passkey-register then passkey-assert in one group, as the app; a cancel is NotAllowedError")
    func passkeyLines() async throws {
        let world = try World()
        let creation = String(decoding: Fixtures.creationJSON(), as: UTF8.self)
        let request = String(decoding: Fixtures.requestJSON(), as: UTF8.self)
        let outcomes = await world.run([
            #"{"id":1,"op":"passkey-register","options":\#(creation)}"#,
            #"{"id":2,"op":"passkey-assert","options":\#(request),"pick":"alice@example.com"}"#,
            #"{"id":3,"op":"passkey-assert","options":\#(request),"user":"cancel"}"#,
            #"{"id":4,"op":"passkey-assert","user":"allow"}"#,
        ])
        guard case .success(.passkeyRegistration(let registration)) = outcomes[0].result,
            case .success(.passkeyAssertion(let assertion)) = outcomes[1].result
        else {
            Issue.record("passkey lines failed: \(outcomes.map(\.result))")
            return
        }
        #expect(assertion.id == registration.id)
        guard case .failure(let canceled) = outcomes[2].result else { Issue.record("cancel succeeded"); return }
        #expect(PasskeyFailure(canceled) == .canceled)
        guard case .failure(let missing) = outcomes[3].result else { Issue.record("no options accepted"); return }
        #expect(missing.message.contains("needs an \"options\" object"))
        #expect(try world.storeSession.read().contents.passkeys.count == 1)
    }

    @Test("the line reader: blank lines counted and skipped, CRLF, a last line without LF, groups bounded")
    func lineReaderGroups() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let input = "a\n\n  \nb\r\nc\nd\ne"
        _ = input.utf8CString.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count - 1) }
        close(fds[1])
        let reader = BatchLineReader(descriptor: fds[0])
        let first = try #require(reader.nextGroup(limit: 3))
        #expect(first.map(\.number) == [1, 4, 5])
        #expect(first.map(\.text) == ["a", "b", "c"])
        let second = try #require(reader.nextGroup(limit: 3))
        #expect(second.map(\.number) == [6, 7])
        #expect(second.map(\.text) == ["d", "e"])
        #expect(reader.nextGroup(limit: 3) == nil)
    }

    @Test("the line reader: a line over the limit is consumed whole and returned truncated")
    func lineReaderTruncates() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let long = String(repeating: "x", count: 5000) + "\nnext\n"
        _ = long.utf8CString.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count - 1) }
        close(fds[1])
        let reader = BatchLineReader(descriptor: fds[0], maximumLineBytes: 1024)
        let group = try #require(reader.nextGroup(limit: 10))
        #expect(group.map(\.text.utf8.count) == [1024, 4])
        #expect(group.last?.text == "next")
    }
}
