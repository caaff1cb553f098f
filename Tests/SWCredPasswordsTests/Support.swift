import Foundation

/// Apple's quirks data (`shared/data/password-manager-resources/`), found next to the repository
/// or through `SWCRED_QUIRKS_DIR`; tests that need it are skipped when it is absent.
enum QuirksData {
    static let directory: URL? = {
        if let explicit = ProcessInfo.processInfo.environment["SWCRED_QUIRKS_DIR"] {
            return URL(fileURLWithPath: explicit)
        }
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // SWCredPasswordsTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // repository root
        return repository.deletingLastPathComponent()
            .appendingPathComponent("shared/data/password-manager-resources", isDirectory: true)
    }()

    static var passwordRulesFile: URL? {
        guard let url = directory?.appendingPathComponent("password-rules.json"),
            FileManager.default.fileExists(atPath: url.path)
        else { return nil }
        return url
    }

    static var available: Bool { passwordRulesFile != nil }

    /// The repository's bundled sample (`Fixtures/quirks/password-rules.json`).
    static let bundledSample: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/quirks/password-rules.json")
}
