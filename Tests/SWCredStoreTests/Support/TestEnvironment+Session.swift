@testable import SWCredStore

extension TestEnvironment {
    /// A key-file session on this environment's store (created on first write).
    func session() -> StoreSession {
        StoreSession(StoreSession.Configuration(path: storePath, keyFilePath: keyPath, options: options()))
    }
}
