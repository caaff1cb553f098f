import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// store.md T4 for passkey items: `swcred passkey register` killed with SIGKILL at the write
/// path's pause points leaves exactly the old or the new set of passkeys, and the next writer proceeds.
@Suite("Passkeys: kill -9", .serialized, .enabled(if: CLI.binaryHasDebugHooks, "needs the debug build's SWCRED_TEST_* hooks"))
struct PasskeyCrashTests {
    static let options = #"""
        {"rp":{"id":"example.com","name":"Example"},"user":{"id":"USER","name":"NAME","displayName":"NAME"},
         "challenge":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8","pubKeyCredParams":[{"type":"public-key","alg":-7}]}
        """#

    static func passkeyUsers(_ sandbox: StoreSandbox) async throws -> Set<String> {
        let result = try await sandbox.run(["passkey", "list", "--format", "json"])
        guard result.status == 0 else { throw CLI.CLIError("the store does not open after a kill: \(result.stderr)") }
        let passkeys = try result.json()["passkeys"] as? [[String: Any]] ?? []
        return Set(passkeys.compactMap { $0["userName"] as? String })
    }

    func register(_ sandbox: StoreSandbox, user: String, environment: [String: String] = [:]) throws -> (Process, String) {
        let optionsPath = sandbox.path("options-\(user).json")
        let handle = Data(user.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        try Data(Self.options.replacingOccurrences(of: "USER", with: handle).replacingOccurrences(of: "NAME", with: user).utf8)
            .write(to: URL(fileURLWithPath: optionsPath))
        let errPath = sandbox.path("child-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["passkey", "register", optionsPath, "--origin", "https://example.com", "--lock-timeout", "30"]
        var env = sandbox.shellEnvironment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        try process.run()
        return (process, errPath)
    }

    @Test("PK-8 (T4): SIGKILL at each write-path pause point → exactly the old or the new passkeys; the next writer proceeds",
          arguments: StoreCrashTests.hookPoints.map(\.0))
    func killAtHooks(_ point: String) async throws {
        let entry = try #require(StoreCrashTests.hookPoints.first { $0.0 == point })
        let sandbox = try StoreSandbox("swcred-pk-t4")
        let (first, _) = try register(sandbox, user: "base")
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        var present: Set<String> = ["base"]
        for round in 0..<2 {
            let user = "u\(round)"
            let (process, errPath) = try register(
                sandbox, user: user, environment: ["SWCRED_TEST_HOOK": point, "SWCRED_TEST_HOOK_ACTION": "stop"])
            let (stopped, hookLine) = CLI.killAtHook(process, errPath: errPath)
            try #require(stopped, "the child never stopped at \(point): \(hookLine)")
            if entry.1 { present.insert(user) }
            #expect(try await Self.passkeyUsers(sandbox) == present, "after a kill at \(point)")
        }
        let (next, _) = try register(sandbox, user: "next")
        next.waitUntilExit()
        #expect(next.terminationStatus == 0)
        #expect(try await Self.passkeyUsers(sandbox) == present.union(["next"]))
    }
}
