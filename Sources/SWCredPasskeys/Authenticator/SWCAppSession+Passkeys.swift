package import FoundationEssentials
package import SWCredCore
package import SWCredKit
package import SWCredStore

extension SWCAppSession {
    /// The app as a passkey caller on a device with the store's `settings`, with the session
    /// configuration's forced switches (`--developer-mode`, `--managed`) applied.
    package func passkeyCaller(settings: DeviceSettings) -> PasskeyCaller {
        .app(app, device: configuration.effective(settings))
    }

    /// Runs `body` as the app in one transaction of the session's store: the passkey commands'
    /// register, assert and delete.
    package func transact<R: Sendable>(
        _ body: (PasskeyCaller, inout StoreContents, Date) throws(SWCredError) -> R
    ) throws(SWCredError) -> R {
        do {
            return try backend.store.transaction { (contents: inout StoreContents, now: Date) throws -> R in
                try body(passkeyCaller(settings: contents.settings), &contents, now)
            }
        } catch let error as SWCredError {
            throw error
        } catch {
            throw SWCredError(.internalError, "unexpected error in a store transaction: \(error)")
        }
    }
}
