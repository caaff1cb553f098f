import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// store.md T9 through the CLI: files are 0600 and created directories 0700 whatever the umask.
@Suite("Store CLI: file modes")
struct StoreFileModeTests {
    @Test("T9: init, add, update, delete and rekey under umask 000, 022 and 077 leave 0600 files and 0700 directories",
          arguments: ["000", "022", "077"])
    func modesUnderUmask(_ umask: String) async throws {
        let sandbox = try StoreSandbox("swcred-t9")
        let script = """
            umask \(umask)
            set -e
            "$SWCRED" init >/dev/null
            printf 'pw\\n' | "$SWCRED" add m.example alice --password-stdin >/dev/null
            printf 'pw2\\n' | "$SWCRED" add m.example alice --password-stdin -U >/dev/null
            printf 'pw\\n' | "$SWCRED" add m.example bob --password-stdin >/dev/null
            "$SWCRED" delete m.example bob >/dev/null
            "$SWCRED" rekey --new-key-file "$HOME/newkey" >/dev/null
            printf 'pw\\n' | "$SWCRED" add m.example carol --password-stdin --key-file "$HOME/newkey" >/dev/null
            """
        let result = try sandbox.startShell(script).wait()
        #expect(result.status == 0, "\(result.stderr)")
        let store = sandbox.defaultStorePath
        var files = [store, store + ".lock", sandbox.path("config/swcred/keychain.key"), sandbox.path("newkey")]
        let stateDir = sandbox.path("state/swcred")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: stateDir)) ?? [] {
            files.append(stateDir + "/" + name)
        }
        if FileManager.default.fileExists(atPath: store + ".bak") { files.append(store + ".bak") }
        for file in files {
            #expect(StoreSandbox.mode(file) == 0o600, "\(file) has mode \(String(StoreSandbox.mode(file) ?? 0, radix: 8)) under umask \(umask)")
        }
        // A store without rollback protection (the default) creates no state folder (issue 28).
        #expect(!FileManager.default.fileExists(atPath: stateDir), "a state folder was created")
        for directory in [sandbox.path("data/swcred"), sandbox.path("config/swcred")] {
            #expect(StoreSandbox.mode(directory) == 0o700, "\(directory) under umask \(umask)")
        }
        // No temporary file is left beside the store.
        let leftovers = (try FileManager.default.contentsOfDirectory(atPath: sandbox.path("data/swcred")))
            .filter { !["keychain.swcred", "keychain.swcred.lock", "keychain.swcred.bak"].contains($0) }
        #expect(leftovers.isEmpty, "\(leftovers)")
        #expect(try await sandbox.run(["show", "m.example", "carol", "--key-file", sandbox.path("newkey")]).stdout == "pw\n")
    }

    @Test("T9: a pre-existing 0644 keychain file becomes 0600 on the next write")
    func looseStoreTightened() async throws {
        let sandbox = try StoreSandbox("swcred-t9b")
        #expect(try await sandbox.add("m.example", "alice", password: "pw").status == 0)
        chmod(sandbox.defaultStorePath, 0o644)
        #expect(try await sandbox.add("m.example", "bob", password: "pw").status == 0)
        #expect(StoreSandbox.mode(sandbox.defaultStorePath) == 0o600)
        #expect(try await sandbox.listItems().count == 2)
    }

    @Test("T17 (CLI): a group-readable key file is refused with 28 and the store is not touched; a missing one is not replaced")
    func looseKeyFile() async throws {
        let sandbox = try StoreSandbox("swcred-t17")
        #expect(try await sandbox.add("m.example", "alice", password: "pw").status == 0)
        let before = try StoreSandbox.bytes(sandbox.defaultStorePath)
        let key = sandbox.path("config/swcred/keychain.key")
        chmod(key, 0o640)
        let result = try await sandbox.run(["add", "m.example", "bob", "--password-stdin", "--format", "json"], stdin: "pw\n")
        #expect(result.status == 28, "\(result.stderr)")
        #expect(try result.errorJSON()["code"] as? String == "insecurePermissions")
        #expect(try StoreSandbox.bytes(sandbox.defaultStorePath) == before)
        // A missing key file for an existing store is not silently replaced by a new one.
        chmod(key, 0o600)
        try FileManager.default.removeItem(atPath: key)
        let missing = try await sandbox.add("m.example", "bob", password: "pw")
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: key))
        #expect(try StoreSandbox.bytes(sandbox.defaultStorePath) == before)
    }
}
