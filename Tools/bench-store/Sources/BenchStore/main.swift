import Foundation
import SWCredCore
import SWCredSodium
@testable import SWCredStore

// Measures, in the build's mode (use release):
// - seal (encode + encrypt + write path) and open (read + verify + decrypt + decode) of a key-file
//   store holding 1k, 10k and 100k items;
// - one add transaction at those sizes (lock, read, verify, change, seal, temp file, fsync,
//   rename, directory fsync, rollback mark);
// - Argon2id per preset (interactive, moderate; sensitive with --sensitive).
// Each figure is the median of --runs runs (default 3), with min and max.

let arguments = CommandLine.arguments

// `BenchStore --fill N STORE KEYFILE`: creates (or replaces) a key-file store holding N items
// shaped as `swcred add` makes them (server fill<i % 50>.example, account user<i>), in one
// transaction, for the whole-process benchmark (Tools/bench-cli-store) to time commands on. The
// rollback mark goes where the CLI looks for it (XDG_STATE_HOME).
if let fill = arguments.firstIndex(of: "--fill"), arguments.count > fill + 3, let count = Int(arguments[fill + 1]) {
    var limits = StoreLimits()
    limits.maxItems = max(limits.maxItems, count)
    limits.maxFileSize = StoreLimits.fileSizeCeiling
    let options = StoreOptions(limits: limits, lockTimeout: .seconds(30), warningHandler: { _ in })
    let store = try KeychainStore.create(
        at: arguments[fill + 2], keySource: .keyFile(path: arguments[fill + 3]), options: options, replaceExisting: true
    )
    try store.transaction { contents, now in
        for index in 0..<count {
            let server = "fill\(index % 50).example"
            let account = "user\(index)"
            try contents.add(
                InternetPasswordItem(
                    server: server, account: account, label: "\(server) (\(account))", comment: "default",
                    creator: "swca", accessGroup: "com.apple.cfnetwork", synchronizable: true,
                    secret: Array("pw-\(index)".utf8)
                ),
                at: now
            )
        }
    }
    exit(0)
}

let runs = arguments.firstIndex(of: "--runs").flatMap { Int(arguments[$0 + 1]) } ?? 3
let includeSensitive = arguments.contains("--sensitive")

func measure(_ label: String, runs: Int, _ body: () throws -> Void) rethrows {
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        let (seconds, attoseconds) = elapsed.components
        samples.append(Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }
    samples.sort()
    let median = samples[samples.count / 2]
    print(String(format: "%-44@ median %9.2f ms  (min %.2f, max %.2f, n=%d)", label as NSString, median, samples[0], samples[samples.count - 1], runs))
}

let root = NSTemporaryDirectory() + "swcred-bench-\(getpid())"
try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
defer { try? FileManager.default.removeItem(atPath: root) }

var limits = StoreLimits()
limits.maxItems = 200_000
limits.maxFileSize = StoreLimits.fileSizeCeiling
let options = StoreOptions(limits: limits, lockTimeout: .seconds(30), stateDirectory: root + "/state", warningHandler: { _ in })

print("libsodium \(Sodium.versionString); \(runs) runs per figure")
for count in [1_000, 10_000, 100_000] {
    let directory = root + "/n\(count)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let storePath = directory + "/keychain.swcred"
    let keySource = KeySource.keyFile(path: directory + "/keychain.key")
    let store = try KeychainStore.create(at: storePath, keySource: keySource, options: options)
    var contents = StoreContents(creationDate: Date())
    contents.limits = limits
    let now = Date()
    for index in 0..<count {
        try contents.add(
            InternetPasswordItem(
                server: "host\(index).example.com", account: "user\(index)@example.com", label: "host\(index).example.com (user\(index))",
                comment: "default", creator: "swca", accessGroup: "com.apple.cfnetwork", synchronizable: true,
                secret: Array("Abc-def-ghi-jkl-\(index)".utf8)
            ),
            at: now
        )
    }
    let filled = contents
    var plaintext: [UInt8] = []
    try measure("  encode payload (\(count) items)", runs: runs) { plaintext = PayloadCodec.encode(filled) }
    try measure("  decode payload (\(count) items)", runs: runs) { _ = try PayloadCodec.decode(plaintext, limits: limits) }
    let key = try SecureBytes(randomCount: 32)
    let nonce = try Sodium.randomBytes(24)
    var sealed: [UInt8] = []
    try measure("  AEAD seal \(plaintext.count / 1024) KiB", runs: runs) {
        sealed = try XChaCha20Poly1305.seal(plaintext, associatedData: [], nonce: nonce, key: key)
    }
    try measure("  AEAD open \(plaintext.count / 1024) KiB", runs: runs) {
        _ = try XChaCha20Poly1305.open(sealed, associatedData: [], nonce: nonce, key: key)
    }
    try store.transaction { current, _ in current = filled }
    let size = (try? FileManager.default.attributesOfItem(atPath: storePath)[.size] as? Int) ?? 0
    print("\(count) items: file \(size / 1024) KiB")
    try measure("  open + snapshot (\(count) items)", runs: runs) {
        let opened = try KeychainStore.open(at: storePath, keySource: keySource, options: options)
        _ = try opened.snapshot()
    }
    try measure("  snapshot on an open store (\(count) items)", runs: runs) { _ = try store.snapshot() }
    let one = ReadSelection(items: ItemQuery(server: "host7.example.com", account: "user7@example.com"))
    try measure("  snapshot selecting one item (\(count) items)", runs: runs) { _ = try store.snapshot(selection: one) }
    let listing = ReadSelection(items: nil, secrets: false)
    try measure("  snapshot without secrets (\(count) items)", runs: runs) { _ = try store.snapshot(selection: listing) }
    var next = count
    try measure("  one add transaction (\(count) items)", runs: runs) {
        next += 1
        try store.transaction { current, stamp in
            try current.add(
                InternetPasswordItem(server: "new\(next).example.com", account: "u", secret: Array("pw".utf8)), at: stamp
            )
        }
    }
}

let passphrase = try SecureBytes(copying: Array("benchmark passphrase".utf8))
let salt = try Sodium.randomBytes(Argon2id.saltLength)
var presets: [KDFPreset] = [.test, .interactive, .moderate]
if includeSensitive { presets.append(.sensitive) }
for preset in presets {
    try measure("Argon2id \(preset.rawValue) (\(preset.parameters))", runs: runs) {
        _ = try Argon2id.deriveKey(passphrase: passphrase, salt: salt, parameters: preset.parameters)
    }
}
