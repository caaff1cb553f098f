import Foundation
import Testing

/// Issue 22: the release build (`Tools/build-release`, run against by `Tools/test-release`) links
/// libsodium from its static archive, so no `libsodium.so` is searched for, mapped and bound at
/// every start. The debug build links the shared library as before.
@Suite("The release swcred loads no libsodium.so")
struct ReleaseLinkingTests {
    /// The shared objects the dynamic loader maps for `binary` (what `ldd` prints), without running it.
    static func loadedObjects(_ binary: URL) throws -> String {
        let result = try CLI.runProgram(binary, [], environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// libsodium's static archive, when this machine has one (libsodium-dev ships it).
    static var staticArchiveExists: Bool {
        ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"].contains {
            FileManager.default.fileExists(atPath: $0 + "/libsodium.a")
        }
    }

    @Test(
        "Tools/build-release: swcred and swcred-fetch need no libsodium.so (the archive is linked in)",
        .enabled(if: ProcessInfo.processInfo.environment["SWCRED_BINARY"] != nil && staticArchiveExists))
    func releaseLinksLibsodiumStatically() throws {
        for binary in [CLI.binary, NetworkHandOffTests.sibling] {
            let objects = try Self.loadedObjects(binary)
            #expect(objects.contains("libc.so"), "\(objects)")
            #expect(!objects.contains("libsodium"), "\(binary.lastPathComponent) loads: \(objects)")
        }
    }
}
