import Foundation
import SWCredCore
import SWCredSodium
@testable import SWCredStore

/// A private temporary directory (0700) with a store path, a key-file path and a state directory,
/// removed when the value is deinitialised.
final class TestEnvironment: @unchecked Sendable {  // @unchecked: immutable after init.
    let root: String
    let storePath: String
    let keyPath: String
    let stateDirectory: String
    let clock: TestStoreClock
    let warnings = WarningRecorder()

    init() {
        let template = FileManager.default.temporaryDirectory.path + "/swcred-store-XXXXXX"
        var chars = Array(template.utf8CString)
        let made = chars.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
            return String(cString: base)
        }
        root = made ?? "/tmp/swcred-store-fallback-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        if made == nil { mkdir(root, 0o700) }
        mkdir(root + "/data", 0o700)
        mkdir(root + "/config", 0o700)
        storePath = root + "/data/keychain.swcred"
        keyPath = root + "/config/keychain.key"
        stateDirectory = root + "/state"
        clock = TestStoreClock(Date(timeIntervalSince1970: 1_750_000_000.123))
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    func options(
        limits: StoreLimits = .default,
        lockTimeout: Duration = .seconds(10),
        allowRollback: Bool = false
    ) -> StoreOptions {
        StoreOptions(
            limits: limits, lockTimeout: lockTimeout, allowRollback: allowRollback, stateDirectory: stateDirectory,
            clock: clock, warningHandler: { [warnings] in warnings.record($0) }
        )
    }

    var keySource: KeySource { .keyFile(path: keyPath) }

    func createKeyFileStore(limits: StoreLimits = .default, rollbackProtection: Bool = false) throws -> KeychainStore {
        try KeychainStore.create(
            at: storePath, keySource: keySource, options: options(limits: limits), rollbackProtection: rollbackProtection)
    }

    func fileBytes(_ path: String? = nil) -> [UInt8] {
        (FileManager.default.contents(atPath: path ?? storePath)).map { Array($0) } ?? []
    }

    func write(_ bytes: [UInt8], to path: String? = nil) {
        let target = path ?? storePath
        let fd = open(target, O_WRONLY | O_TRUNC | O_CREAT, 0o600)
        precondition(fd >= 0, "test write failed")
        bytes.withUnsafeBytes { _ = Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    func mode(of path: String) -> mode_t {
        // Through FileManager: the `stat` struct's owning module varies between cold and warm
        // builds under MemberImportVisibility.
        let permissions = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? NSNumber
        return mode_t(permissions?.uint32Value ?? 0) & 0o7777
    }
}

final class WarningRecorder: @unchecked Sendable {  // @unchecked: guarded by the lock.
    private let lock = NSLock()
    private var lines: [String] = []
    func record(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

func passphrase(_ text: String) throws -> SecureBytes {
    try SecureBytes(copying: Array(text.utf8))
}

func item(_ server: String, _ account: String, password: String = "pw", synchronizable: Bool = false)
    -> InternetPasswordItem
{
    InternetPasswordItem(
        server: server, account: account, label: "\(server) (\(account))", comment: "default", creator: "swca",
        accessGroup: InternetPasswordItem.sharedWebCredentialsAccessGroup, synchronizable: synchronizable,
        secret: Array(password.utf8)
    )
}

/// The error code a throwing expression produced, or nil.
func errorCode(_ body: () throws -> Void) -> SWCredError.Code? {
    do {
        try body()
        return nil
    } catch let error as SWCredError {
        return error.code
    } catch {
        return .internalError
    }
}
