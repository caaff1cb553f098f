public import FoundationEssentials
import Dispatch
public import SWCredCore
public import SWCredStore

/// Where passkeys live: something that runs a closure as one transaction over store contents.
///
/// ``KeychainStore`` is one (the encrypted file); SWCredPasskeyTesting's `InMemoryPasskeyKeychain`
/// is another, for tests.
public protocol PasskeyBackend: Sendable {
    /// Runs `body` as one transaction: on a throw nothing is kept.
    func passkeyTransaction<R: Sendable>(
        _ body: @escaping @Sendable (inout StoreContents, Date) throws(SWCredError) -> R
    ) async throws(SWCredError) -> R
}

extension KeychainStore: PasskeyBackend {
    public func passkeyTransaction<R: Sendable>(
        _ body: @escaping @Sendable (inout StoreContents, Date) throws(SWCredError) -> R
    ) async throws(SWCredError) -> R {
        let result: Result<R, SWCredError> = await withCheckedContinuation { continuation in
            // The store blocks (lock waits, fsync): keep it off Swift's cooperative pool.
            DispatchQueue.global().async {
                do {
                    let value = try self.transaction { (contents: inout StoreContents, now: Date) throws -> R in
                        try body(&contents, now)
                    }
                    continuation.resume(returning: .success(value))
                } catch let error as SWCredError {
                    continuation.resume(returning: .failure(error))
                } catch {
                    continuation.resume(returning: .failure(SWCredError(.internalError, "store failure: \(error)")))
                }
            }
        }
        return try result.get()
    }
}
