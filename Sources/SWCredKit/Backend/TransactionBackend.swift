package import FoundationEssentials
package import SWCredCore
package import SWCredStore
import Synchronization

/// The Shared Web Credentials backend of one open store transaction: reads and changes go to the
/// transaction's contents in memory, under the store's write lock, and reach the disk together
/// at ``StoreTransaction/commit()``.
///
/// A batch (`BatchExecutor` in SWCredPasskeys, `swcred batch`) runs a group of request lines on one of these, so that a group of adds costs one
/// verified read and one durable write instead of one each (issue 13: 10,000 adds were 10,000
/// whole-store rewrites). Each change has the semantics of ``StoreBackend``'s one-transaction
/// change: the contents' operations change nothing when they fail.
package final class TransactionBackend: SharedWebCredentialsBackend {
    private struct State {
        var contents: StoreContents
        var changes = 0
    }

    private let state: Mutex<State>
    private let clock: any StoreClock

    package init(contents: StoreContents, clock: any StoreClock) {
        state = Mutex(State(contents: contents))
        self.clock = clock
    }

    /// The contents with every change made so far.
    package var contents: StoreContents { state.withLock { $0.contents } }

    /// How many changes succeeded so far (a line that changed nothing leaves it as it was).
    package var changes: Int { state.withLock { $0.changes } }

    private func change(_ body: (inout StoreContents, Date) throws(SWCredError) -> Void) throws(SWCredError) {
        try modify(body)
    }

    /// Applies `body` to the contents as one change of the group (a passkey registration or
    /// assertion of a batch line); `body` throws before changing anything when a check fails.
    package func modify<R>(_ body: (inout StoreContents, Date) throws(SWCredError) -> R) throws(SWCredError) -> R {
        let now = clock.now()
        return try state.withLock { (state: inout State) throws(SWCredError) -> R in
            let result = try body(&state.contents, now)
            state.changes += 1
            return result
        }
    }

    package func deviceSettings() async throws(SWCredError) -> SWCDeviceSettings {
        state.withLock { $0.contents.settings }
    }

    package func items(matching query: ItemQuery) async throws(SWCredError) -> [InternetPasswordItem] {
        state.withLock { $0.contents.items(matching: query) }
    }

    package func add(_ item: InternetPasswordItem) async throws(SWCredError) {
        try change { (contents: inout StoreContents, now: Date) throws(SWCredError) in
            try contents.add(item, at: now)
        }
    }

    package func updatePassword(matching query: ItemQuery, secret: [UInt8], comment: String) async throws(SWCredError) {
        try change { (contents: inout StoreContents, now: Date) throws(SWCredError) in
            try contents.updateSharedWebCredentials(matching: query, secret: secret, comment: comment, at: now)
        }
    }

    package func delete(matching query: ItemQuery) async throws(SWCredError) {
        try change { (contents: inout StoreContents, _: Date) throws(SWCredError) in
            try contents.deleteSharedWebCredentials(matching: query)
        }
    }

    package func approval(for key: AssociationRecord.Key) async throws(SWCredError) -> SWCApproval? {
        state.withLock { $0.contents.sharedWebCredentialsApproval(for: key) }
    }

    package func setUserApproval(_ approval: SWCApprovalState, for key: AssociationRecord.Key) async throws(SWCredError) {
        try change { (contents: inout StoreContents, _: Date) throws(SWCredError) in
            try contents.setSharedWebCredentialsUserApproval(approval, for: key)
        }
    }
}
