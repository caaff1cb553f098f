import Dispatch
import Foundation
import SWCredCore
@testable import SWCredKit
import SWCredStore
import SWCredTesting
import Synchronization
import Testing

/// What one completion saw.
private struct Delivery: Sendable {
    var calls = 0
    var callReturned = false
    var onCallingThread = false
    var onMainThread = false
    var threadName = ""
    var accounts: [String] = []
    var errorStatus: Int?
}

/// Bookkeeping for many calls made from one dedicated thread.
private final class Deliveries: Sendable {
    let count: Int
    private let returned: Mutex<[Bool]>
    private let seen: Mutex<[Delivery]>
    private let done: Mutex<(Int, CheckedContinuation<Void, Never>?)> = Mutex((0, nil))
    let callerThread = Mutex<pthread_t?>(nil)
    /// Signalled once, when the last completion has been recorded.
    let allDelivered = DispatchSemaphore(value: 0)

    init(count: Int) {
        self.count = count
        returned = Mutex(Array(repeating: false, count: count))
        seen = Mutex(Array(repeating: Delivery(), count: count))
    }

    func markReturned(_ index: Int) { returned.withLock { $0[index] = true } }

    func record(_ index: Int, accounts: [String], status: Int?) {
        var wasReturned = returned.withLock { $0[index] }
        if !wasReturned {
            // The caller may have been preempted between the API's `return` and its own next
            // statement; give it up to 200 ms. A completion run synchronously inside the call
            // would wait here in vain (the caller cannot return) and is reported.
            for _ in 0..<2_000 where !wasReturned {
                usleep(100)
                wasReturned = returned.withLock { $0[index] }
            }
        }
        let caller = callerThread.withLock { $0 }
        seen.withLock {
            $0[index].calls += 1
            $0[index].callReturned = wasReturned
            $0[index].onCallingThread = caller.map { pthread_equal($0, pthread_self()) != 0 } ?? false
            $0[index].onMainThread = Thread.isMainThread
            $0[index].threadName = Thread.current.name ?? ""
            $0[index].accounts = accounts
            $0[index].errorStatus = status
        }
        let continuation = done.withLock { state -> CheckedContinuation<Void, Never>? in
            state.0 += 1
            if state.0 == count { allDelivered.signal() }
            if state.0 == count, let continuation = state.1 {
                state.1 = nil
                return continuation
            }
            return nil
        }
        continuation?.resume()
    }

    func waitForAll() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = done.withLock { state -> Bool in
                if state.0 >= count { return true }
                state.1 = continuation
                return false
            }
            if finished { continuation.resume() }
        }
    }

    var all: [Delivery] { seen.withLock { $0 } }
}

/// Runs `body` on a new thread (the "app's" calling thread) and waits until every completion has
/// been delivered. The thread stays alive until then, blocked, so that its thread id cannot be
/// reused by a worker thread while completions are still being checked against it.
private func onDedicatedThread(
    _ deliveries: Deliveries, waitForDeliveries: Bool = true, _ body: @escaping @Sendable () -> Void
) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let thread = Thread {
            deliveries.callerThread.withLock { $0 = pthread_self() }
            body()
            if waitForDeliveries { deliveries.allDelivered.wait() }
            continuation.resume()
        }
        thread.start()
    }
}

@Suite("Completion delivery (SWC-3)")
struct CompletionTests {
    @Test("SWC-3.2: the gate holds a result delivered while the call is still running until the call returns")
    func gateHoldsEarlyResult() async throws {
        let ran = Mutex(0)
        let gate = CompletionGate<Int> { value in ran.withLock { $0 += value } }
        gate.deliver(7)  // the operation finished before the API function returned
        try await Task.sleep(for: .milliseconds(50))
        #expect(ran.withLock { $0 } == 0)
        gate.callReturned()
        for _ in 0..<2_000 where ran.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(ran.withLock { $0 } == 7)
        // The other order: returned first, then delivered.
        let late = CompletionGate<Int> { value in ran.withLock { $0 += value } }
        late.callReturned()
        late.deliver(1)
        for _ in 0..<2_000 where ran.withLock({ $0 }) == 7 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(ran.withLock { $0 } == 8)
    }

    @Test("SWC-3.1 / SWC-3.2: 1 000 concurrent requests each complete exactly once, after the call returned, off the calling thread, on a global queue")
    @available(*, deprecated)
    func thousandRequests() async throws {
        let fixture = try Fixture(responder: SWCPolicyResponder(pick: .first))
        try fixture.keychain.seed(server: "example.com", account: "alice", password: "pw")
        let n = 1_000
        let deliveries = Deliveries(count: n)
        let swc = fixture.swc
        await onDedicatedThread(deliveries) {
            for index in 0..<n {
                swc.requestSharedWebCredential("example.com", account: nil) { credentials, error in
                    deliveries.record(index, accounts: credentials?.map(\.account) ?? [], status: error?.code.status)
                }
                deliveries.markReturned(index)
            }
        }
        await deliveries.waitForAll()
        let all = deliveries.all
        #expect(all.allSatisfy { $0.calls == 1 })
        #expect(all.allSatisfy { $0.callReturned })
        #expect(all.allSatisfy { !$0.onCallingThread })
        #expect(all.allSatisfy { !$0.onMainThread })
        #expect(all.allSatisfy { $0.accounts == ["alice"] && $0.errorStatus == nil })
        #if os(Linux)
        // libdispatch names its worker threads after the root queue ("com.apple.root.default-qos",
        // truncated by the 15-byte Linux thread-name limit).
        #expect(all.allSatisfy { $0.threadName.hasSuffix("default-qos") })
        #endif
    }

    @Test("SWC-3.1: 1 000 concurrent adds (validation failures included) each complete exactly once")
    @available(*, deprecated)
    func thousandAdds() async throws {
        let fixture = try Fixture(configuration: SWCConfiguration(addConfirmation: .silent))
        let n = 1_000
        let deliveries = Deliveries(count: n)
        let swc = fixture.swc
        await onDedicatedThread(deliveries) {
            for index in 0..<n {
                // Every tenth call fails validation; its completion must still come exactly once, later.
                let account = index % 10 == 0 ? "" : "user\(index)"
                swc.addSharedWebCredential("example.com", account: account, password: "pw\(index)") { error in
                    deliveries.record(index, accounts: [], status: error?.code.status)
                }
                deliveries.markReturned(index)
            }
        }
        await deliveries.waitForAll()
        let all = deliveries.all
        #expect(all.allSatisfy { $0.calls == 1 && $0.callReturned && !$0.onCallingThread })
        #expect(all.enumerated().allSatisfy { index, delivery in delivery.errorStatus == (index % 10 == 0 ? -50 : nil) })
        #expect(fixture.keychain.items.count == 900)
    }

    @Test("SWC-3.3: a nil completion is allowed and the operation still runs")
    @available(*, deprecated)
    func nilCompletion() async throws {
        let fixture = try Fixture(answers: [.allow])
        let task = fixture.swc.addSharedWebCredential("example.com", account: "alice", password: "pw", completion: nil)
        await task.value
        #expect(fixture.keychain.items.map(\.account) == ["alice"])
        #expect(fixture.user.kinds == [.add])
    }

    @Test("SWC-3.5: async forms give the same values as the completion forms")
    @available(*, deprecated)
    func asyncMatchesCompletion() async throws {
        // Each case: a fresh world per form, the same call in both.
        struct Case: Sendable {
            var profile: SWCProfile
            var fqdn: String?
            var account: String?
            var answers: [SWCPromptAnswer]
            var seed: Bool
        }
        let cases = [
            Case(profile: .legacy, fqdn: "example.com", account: nil, answers: [.choose(0)], seed: true),
            Case(profile: .legacy, fqdn: "example.com", account: nil, answers: [.cancel], seed: true),
            Case(profile: .legacy, fqdn: "example.com", account: nil, answers: [], seed: false),
            Case(profile: .legacy, fqdn: "", account: nil, answers: [], seed: true),
            Case(profile: .current, fqdn: nil, account: nil, answers: [.cancel], seed: true),
            Case(profile: .current, fqdn: nil, account: nil, answers: [.choose(0)], seed: true),
        ]
        for item in cases {
            let viaCompletion = try Fixture(answers: item.answers, configuration: SWCConfiguration(profile: item.profile))
            let viaAsync = try Fixture(answers: item.answers, configuration: SWCConfiguration(profile: item.profile))
            if item.seed {
                try viaCompletion.keychain.seed(server: "example.com", account: "alice", password: "pw")
                try viaAsync.keychain.seed(server: "example.com", account: "alice", password: "pw")
            }
            let completed: ([SharedWebCredential]?, SWCredError?) = await withCheckedContinuation { continuation in
                viaCompletion.swc.requestSharedWebCredential(item.fqdn, account: item.account) { credentials, error in
                    continuation.resume(returning: (credentials, error))
                }
            }
            do throws(SWCredError) {
                let credentials = try await viaAsync.swc.requestSharedWebCredential(item.fqdn, account: item.account)
                #expect(completed.1 == nil)
                #expect(completed.0 == credentials)
            } catch {
                #expect(completed.1 == error)
                #expect(completed.1?.message == error.message)
            }
        }
        // add: success, decline (nil), failure.
        for answers in [[SWCPromptAnswer.allow], [.notNow], []] {
            let viaCompletion = try Fixture(answers: answers)
            let viaAsync = try Fixture(answers: answers)
            let completed: SWCredError? = await withCheckedContinuation { continuation in
                viaCompletion.swc.addSharedWebCredential("example.com", account: "alice", password: "pw") {
                    continuation.resume(returning: $0)
                }
            }
            var thrown: SWCredError?
            do throws(SWCredError) {
                try await viaAsync.swc.addSharedWebCredential("example.com", account: "alice", password: "pw")
            } catch { thrown = error }
            #expect(completed == thrown)
            #expect(viaCompletion.keychain.items.count == viaAsync.keychain.items.count)
        }
    }

    @Test("SWC-3.5: canceling the task answers a pending prompt with cancel; the completion still comes once")
    @available(*, deprecated)
    func cancellationAnswersPrompt() async throws {
        let pending = SWCPendingResponder()
        let fixture = try Fixture(responder: pending)
        let received = Mutex<[SWCredError?]>([])
        let task = fixture.swc.addSharedWebCredential("example.com", account: "alice", password: "pw") { error in
            received.withLock { $0.append(error) }
        }
        await pending.waitForPrompt()
        task.cancel()
        await task.value
        // The completion is dispatched after the task ends; wait for it.
        while received.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(1)) }
        #expect(received.withLock { $0.count } == 1)
        #expect(received.withLock { $0.first ?? nil } == nil)  // declined: success (SWC-6.10)
        #expect(fixture.keychain.items.isEmpty)
        #expect(fixture.user.kinds == [.add])
        // The abandoned prompt was withdrawn from the responder; a late answer finds nothing.
        #expect(pending.answer(.allow) == false)
        #expect(fixture.keychain.items.isEmpty)
    }

    @Test("SWC-3.5: canceling an async request with a pending current picker throws ASAuthorizationError 1001")
    @available(*, deprecated)
    func cancellationOfPicker() async throws {
        let pending = SWCPendingResponder()
        let fixture = try Fixture(responder: pending, configuration: SWCConfiguration(profile: .current))
        try fixture.keychain.seed(server: "example.com", account: "alice", password: "pw")
        let swc = fixture.swc
        let task = Task { () throws(SWCredError) -> [SharedWebCredential] in
            try await swc.requestSharedWebCredential(nil, account: nil)
        }
        await pending.waitForPrompt()
        task.cancel()
        let result = await task.result
        #expect(throws: SWCredError(.canceled, "")) { try result.get() }
    }

    @Test("SWC-3.5: a canceled task never skips a write that was already confirmed")
    @available(*, deprecated)
    func confirmedWriteSurvivesCancellation() async throws {
        let keychain = InMemoryKeychain()
        try keychain.approve(appID: Fixture.appID, domain: "example.com")
        let backend = CancelingBackend(inner: keychain)
        let swc = SharedWebCredentials(
            backend: backend, app: SWCApp(appID: Fixture.appID, associatedDomains: ["webcredentials:example.com"]),
            responder: SWCPolicyResponder(confirmation: .allow))
        try await swc.addSharedWebCredential("example.com", account: "alice", password: "pw")
        #expect(backend.sawCancellation.withLock { $0 })
        #expect(keychain.items.map(\.account) == ["alice"])
    }

    @Test("SWC-3.5: a prompt timeout counts as cancel")
    func timeout() async throws {
        let fixture = try Fixture(
            responder: SWCPendingResponder(), configuration: SWCConfiguration(promptTimeout: .milliseconds(20)))
        let report = await fixture.swc.add(fqdn: "example.com", account: "alice", password: "pw")
        #expect(report.outcome == .declined)
        #expect(report.answer == .cancel)
        #expect(fixture.keychain.items.isEmpty)
    }

    @Test("SWC-3.4 / SWC-4.4: operations and their prompts run one at a time in call order")
    @available(*, deprecated)
    func fifo() async throws {
        let pending = SWCPendingResponder()
        let fixture = try Fixture(responder: pending)
        let order = Mutex<[Int]>([])
        let n = 8
        let deliveries = Deliveries(count: n)
        let swc = fixture.swc
        // The prompts are answered below, so the calling thread must not wait for the completions.
        await onDedicatedThread(deliveries, waitForDeliveries: false) {
            for index in 0..<n {
                swc.addSharedWebCredential("example.com", account: "user\(index)", password: "pw") { _ in
                    order.withLock { $0.append(index) }
                    deliveries.record(index, accounts: [], status: nil)
                }
                deliveries.markReturned(index)
            }
        }
        for _ in 0..<n {
            await pending.waitForPrompt()
            // Only one prompt is ever shown at a time.
            #expect(pending.pendingCount == 1)
            pending.answer(.allow)
        }
        await deliveries.waitForAll()
        #expect(pending.shown.map(\.kind) == Array(repeating: .add, count: n))
        #expect(fixture.keychain.items.map(\.account) == (0..<n).map { "user\($0)" })
    }
}

/// Wraps a keychain and cancels the running task when the write starts, to show that a confirmed
/// write still happens.
private final class CancelingBackend: SharedWebCredentialsBackend {
    let inner: InMemoryKeychain
    let sawCancellation = Mutex(false)
    init(inner: InMemoryKeychain) { self.inner = inner }
    func deviceSettings() async throws(SWCredError) -> SWCDeviceSettings { try await inner.deviceSettings() }
    func items(matching query: ItemQuery) async throws(SWCredError) -> [InternetPasswordItem] {
        try await inner.items(matching: query)
    }
    func add(_ item: InternetPasswordItem) async throws(SWCredError) {
        withUnsafeCurrentTask { $0?.cancel() }
        sawCancellation.withLock { $0 = Task.isCancelled }
        try await inner.add(item)
    }
    func updatePassword(matching query: ItemQuery, secret: [UInt8], comment: String) async throws(SWCredError) {
        try await inner.updatePassword(matching: query, secret: secret, comment: comment)
    }
    func delete(matching query: ItemQuery) async throws(SWCredError) { try await inner.delete(matching: query) }
    func approval(for key: AssociationRecord.Key) async throws(SWCredError) -> SWCApproval? {
        try await inner.approval(for: key)
    }
    func setUserApproval(_ state: SWCApprovalState, for key: AssociationRecord.Key) async throws(SWCredError) {
        try await inner.setUserApproval(state, for: key)
    }
}
