import Foundation
import Testing

/// One store session per command (issue 20): the passphrase is read once per process, however
/// many times the command opens the store. `add -U` on an existing item opens twice (an
/// add-if-absent that finds the key, then the update); before the session, the second open read
/// `--passphrase-stdin` / `--passphrase-fd` again, found end of file and failed with 50.
@Suite("Store CLI: one session per command")
struct StoreSessionCommandTests {
    /// A passphrase store (test KDF preset) holding `tacos.example alice` with password `old`,
    /// and a private password file holding `new`.
    private static func passphraseStore() throws -> (StoreSandbox, store: String, passwordFile: String) {
        let sandbox = try StoreSandbox()
        let store = sandbox.path("p/keychain.swcred")
        let created = try sandbox.run(["init", "--store", store, "--passphrase-stdin", "--kdf", "test"], stdin: "pass\n")
        #expect(created.status == 0, "\(created.stderr)")
        let old = try StoreCommandTests.privateFile(sandbox, "old", "old\n")
        let added = try sandbox.run(
            ["add", "tacos.example", "alice", "--store", store, "--password-file", old, "--passphrase-stdin"],
            stdin: "pass\n")
        #expect(added.status == 0, "\(added.stderr)")
        return (sandbox, store, try StoreCommandTests.privateFile(sandbox, "new", "new\n"))
    }

    @Test("add -U on an existing item with --passphrase-stdin: updated, exit 0 (the passphrase is read once)")
    func updateWithPassphraseFromStandardInput() throws {
        let (sandbox, store, passwordFile) = try Self.passphraseStore()
        let updated = try sandbox.run(
            ["add", "tacos.example", "alice", "-U", "--store", store, "--password-file", passwordFile,
             "--passphrase-stdin", "--format", "json"],
            stdin: "pass\n")
        #expect(updated.status == 0, "\(updated.stderr)")
        #expect(try updated.json()["operation"] as? String == "updated")
        let shown = try sandbox.run(["show", "tacos.example", "alice", "--store", store, "--passphrase-stdin"], stdin: "pass\n")
        #expect(shown.stdout == "new\n", "\(shown.stderr)")
    }

    @Test("add -U on an existing item with --passphrase-fd: updated, exit 0")
    func updateWithPassphraseFromDescriptor() throws {
        let (sandbox, store, passwordFile) = try Self.passphraseStore()
        let phrase = try StoreCommandTests.privateFile(sandbox, "phrase", "pass\n")
        let updated = try sandbox.startShell(
            "exec 7<\"$PHRASE\"; \"$SWCRED\" add tacos.example alice -U --store \"$STORE\" --password-file \"$PW\" --passphrase-fd 7",
            environment: ["PHRASE": phrase, "STORE": store, "PW": passwordFile]).wait()
        #expect(updated.status == 0, "\(updated.stderr)")
        #expect(updated.stdout.hasPrefix("updated"), "\(updated.stdout)")
        // The same password again: unchanged, still one read of the descriptor.
        let again = try sandbox.startShell(
            "exec 7<\"$PHRASE\"; \"$SWCRED\" add tacos.example alice -U --store \"$STORE\" --password-file \"$PW\" --passphrase-fd 7",
            environment: ["PHRASE": phrase, "STORE": store, "PW": passwordFile]).wait()
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.hasPrefix("unchanged"), "\(again.stdout)")
    }

    @Test("add without -U on an existing item with --passphrase-stdin: still duplicateItem (45)")
    func duplicateWithPassphraseFromStandardInput() throws {
        let (sandbox, store, passwordFile) = try Self.passphraseStore()
        let duplicate = try sandbox.run(
            ["add", "tacos.example", "alice", "--store", store, "--password-file", passwordFile, "--passphrase-stdin"],
            stdin: "pass\n")
        #expect(duplicate.status == 45, "\(duplicate.stderr)")
    }
}
