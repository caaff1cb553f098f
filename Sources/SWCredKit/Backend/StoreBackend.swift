import Dispatch
public import SWCredCore
public import SWCredStore

/// The encrypted store as a Shared Web Credentials backend.
///
/// Reads use a snapshot (no lock); every change is one store transaction (lock, read, apply, write
/// a new generation), so concurrent processes never lose an update (`spec/store.md` §6–7). The
/// store's calls block (lock waits, `fsync`, Argon2id), so they run on a dispatch queue, off
/// Swift's cooperative pool.
public final class StoreBackend: SharedWebCredentialsBackend {
    /// The open store.
    public let store: KeychainStore
    private let queue: DispatchQueue

    /// Wraps an open store.
    public init(store: KeychainStore) {
        self.store = store
        self.queue = DispatchQueue(label: "swcred.store-backend", attributes: .concurrent)
    }

    func runBlocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws(SWCredError) -> T {
        let result: Result<T, SWCredError> = await withCheckedContinuation { continuation in
            queue.async {
                do {
                    continuation.resume(returning: .success(try body()))
                } catch let error as SWCredError {
                    continuation.resume(returning: .failure(error))
                } catch {
                    continuation.resume(returning: .failure(SWCredError(.internalError, "store failure: \(error)")))
                }
            }
        }
        return try result.get()
    }

    public func deviceSettings() async throws(SWCredError) -> SWCDeviceSettings {
        let store = self.store
        return try await runBlocking { try store.snapshot().contents.settings }
    }

    public func items(matching query: ItemQuery) async throws(SWCredError) -> [InternetPasswordItem] {
        let store = self.store
        return try await runBlocking { try store.snapshot().contents.items(matching: query) }
    }

    public func add(_ item: InternetPasswordItem) async throws(SWCredError) {
        let store = self.store
        try await runBlocking {
            try store.transaction { contents, now in try contents.add(item, at: now) }
        }
    }

    public func updatePassword(matching query: ItemQuery, secret: [UInt8], comment: String) async throws(SWCredError) {
        let store = self.store
        try await runBlocking {
            try store.transaction { contents, now in
                try contents.updateSharedWebCredentials(matching: query, secret: secret, comment: comment, at: now)
            }
        }
    }

    public func delete(matching query: ItemQuery) async throws(SWCredError) {
        let store = self.store
        try await runBlocking {
            try store.transaction { contents, _ in try contents.deleteSharedWebCredentials(matching: query) }
        }
    }

    public func approval(for key: AssociationRecord.Key) async throws(SWCredError) -> SWCApproval? {
        let store = self.store
        return try await runBlocking {
            try store.snapshot().contents.sharedWebCredentialsApproval(for: key)
        }
    }

    public func setUserApproval(_ state: SWCApprovalState, for key: AssociationRecord.Key) async throws(SWCredError) {
        let store = self.store
        try await runBlocking {
            try store.transaction { contents, _ in
                try contents.setSharedWebCredentialsUserApproval(state, for: key)
            }
        }
    }
}
