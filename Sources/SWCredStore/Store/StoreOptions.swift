import FoundationEssentials
import SWCredSodium
#if canImport(Glibc)
import Glibc
#endif

/// Options for opening, creating and writing a store. Every field has a safe default.
public struct StoreOptions: Sendable {
    /// The limits of spec/store.md §9.
    public var limits: StoreLimits
    /// How long a write waits for the lock before failing with `busy`; 0 tries once.
    public var lockTimeout: Duration
    /// Continue when the file's generation is below this account's high-water mark (with a warning)
    /// instead of failing with `rollbackDetected`. The next save then writes a generation above
    /// the mark.
    /// - Warning: this accepts a rolled-back (restored or re-synced old) store as current.
    public var allowRollback: Bool
    /// The directory of the rollback state files; `nil` uses ``StorePaths/stateDirectory(environment:)``.
    public var stateDirectory: String?
    /// The clock for creation and modification dates.
    public var clock: any StoreClock
    /// Receives warnings (rollback override, re-anchored state, weak KDF parameters, lowering on
    /// rekey). The default writes `swcred: warning: …` to stderr. Never receives secrets.
    public var warningHandler: @Sendable (String) -> Void
    /// Pause points for crash tests (debug builds only; ignored in release builds). `nil` reads
    /// the `SWCRED_TEST_HOOK` environment variable.
    var testHook: (@Sendable (TestHookPoint) -> Void)?
    /// Fixed random bytes for golden files (tests only, through `@testable import`).
    var fixedRandomness: FixedRandomness?
    /// Told each time a passphrase is stretched with Argon2id (tests only, through
    /// `@testable import`: "the key derivation runs once per session").
    var passphraseDerivationObserver: (@Sendable () -> Void)?

    /// Creates options with safe defaults: default limits, a 5-second lock timeout, no rollback
    /// override, the XDG state directory, the system clock, warnings on stderr.
    public init(
        limits: StoreLimits = .default,
        lockTimeout: Duration = .seconds(5),
        allowRollback: Bool = false,
        stateDirectory: String? = nil,
        clock: any StoreClock = LiveStoreClock(),
        warningHandler: @escaping @Sendable (String) -> Void = StoreOptions.standardErrorWarning
    ) {
        self.limits = limits
        self.lockTimeout = lockTimeout
        self.allowRollback = allowRollback
        self.stateDirectory = stateDirectory
        self.clock = clock
        self.warningHandler = warningHandler
        self.testHook = nil
        self.fixedRandomness = nil
        self.passphraseDerivationObserver = nil
    }

    /// Writes `swcred: warning: <message>` to stderr.
    public static let standardErrorWarning: @Sendable (String) -> Void = { message in
        let line = "swcred: warning: \(message)\n"
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { _ = write(2, base, raw.count) }
        }
    }

    func random(_ count: Int, _ purpose: FixedRandomness.Purpose) throws(SWCredError) -> [UInt8] {
        if let fixed = fixedRandomness?.bytes(for: purpose), fixed.count == count { return fixed }
        return try Sodium.randomBytes(count)
    }
}

/// Fixed salts, nonces and store ids for golden files (T12). Tests only.
struct FixedRandomness: Sendable {
    enum Purpose: Sendable { case salt, nonce, storeID }
    var salt: [UInt8]?
    var nonce: [UInt8]?
    var storeID: [UInt8]?

    func bytes(for purpose: Purpose) -> [UInt8]? {
        switch purpose {
        case .salt: salt
        case .nonce: nonce
        case .storeID: storeID
        }
    }
}

import SWCredCore
