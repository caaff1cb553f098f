import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The store commands end to end, as real processes: init/add/list/show/delete/rekey, both key
/// modes, the exit codes of cli.md, and the JSON shapes of `Schemas/`.
@Suite("Store CLI: commands")
struct StoreCommandTests {
    /// Writes a private (0600) file and returns its path.
    static func privateFile(_ sandbox: StoreSandbox, _ name: String, _ contents: String, mode: mode_t = 0o600) throws -> String {
        let path = sandbox.path(name)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(contents.utf8)))
        chmod(path, mode)
        return path
    }

    @Test("a first add creates the store with a fresh key file, says so on stderr, and the item reads back")
    func firstAddCreatesStore() async throws {
        let sandbox = try StoreSandbox()
        let added = try await sandbox.add("Example.COM.", "alice", password: "correct horse")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stderr.contains("created"), "stderr should say the store was created: \(added.stderr)")
        #expect(FileManager.default.fileExists(atPath: sandbox.defaultStorePath))
        // The key file lives under the config folder, not beside the store (store.md §1).
        let configDir = sandbox.path("config/swcred")
        let keyFiles = (try? FileManager.default.contentsOfDirectory(atPath: configDir)) ?? []
        #expect(!keyFiles.isEmpty, "no key file under \(configDir)")
        let shown = try await sandbox.run(["show", "example.com", "alice"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout == "correct horse\n")
        // A second add does not say "created" again.
        let second = try await sandbox.add("example.com", "bob", password: "pw2")
        #expect(second.status == 0)
        #expect(!second.stderr.contains("created"))
    }

    @Test("key-file round trip: add, list (no passwords), show, -U update, delete; JSON matches the schemas")
    func keyFileRoundTrip() async throws {
        let sandbox = try StoreSandbox()
        var validator = JSONSchemaValidator.repository
        let sentinel = "pw-\(UUID().uuidString)"

        let added = try await sandbox.run(["add", "example.com", "alice", "--password-stdin", "--format", "json"], stdin: sentinel + "\n")
        #expect(added.status == 0, "\(added.stderr)")
        let addJSON = try added.json()
        #expect(try validator.validate(addJSON, against: "add") == [])
        #expect(addJSON["operation"] as? String == "added")
        #expect((addJSON["item"] as? [String: Any])?["server"] as? String == "example.com")
        #expect(!added.stdout.contains(sentinel))

        #expect(try await sandbox.add("example.com:8443", "alice", password: "other").status == 0)
        #expect(try await sandbox.add("login.example.org", "carol", password: "third").status == 0)

        let list = try await sandbox.run(["list", "--format", "json"])
        #expect(list.status == 0)
        let listJSON = try list.json()
        #expect(try validator.validate(listJSON, against: "list") == [])
        #expect(!list.stdout.contains(sentinel))
        let items = listJSON["items"] as? [[String: Any]] ?? []
        #expect(items.count == 3)
        #expect(items.contains { $0["port"] as? Int == 8443 })
        #expect(items.first?["label"] as? String == "example.com (alice)")

        let filtered = try await sandbox.listItems(["example.com"])
        #expect(filtered.count == 2)
        let textList = try await sandbox.run(["list"])
        #expect(textList.stdout.contains("example.com:8443\talice"))
        #expect(!textList.stdout.contains(sentinel))

        let shownJSON = try await sandbox.run(["show", "example.com:0", "alice", "--format", "json"])
        // Port 0 is not a valid port on the command line.
        #expect(shownJSON.status == 50)
        let shown = try await sandbox.run(["show", "example.com:8443", "alice", "--format", "json"])
        #expect(shown.status == 0)
        let showDoc = try shown.json()
        #expect(showDoc["password"] as? String == "other")
        #expect((showDoc["item"] as? [String: Any])?["accessGroup"] as? String == "com.apple.cfnetwork")

        // An existing item: 45 without -U, updated with it, unchanged with the same password.
        let duplicate = try await sandbox.add("example.com", "alice", password: "new")
        #expect(duplicate.status == 45)
        let updated = try await sandbox.run(["add", "example.com", "alice", "--password-stdin", "-U", "--format", "json"], stdin: "new\n")
        #expect(updated.status == 0)
        #expect(try updated.json()["operation"] as? String == "updated")
        let unchanged = try await sandbox.run(["add", "example.com", "alice", "--password-stdin", "--update", "--format", "json"], stdin: "new\n")
        #expect(try unchanged.json()["operation"] as? String == "unchanged")
        #expect(try await sandbox.run(["show", "example.com:443", "alice"]).status == 44)
        #expect(try await sandbox.run(["show", "EXAMPLE.com", "alice"]).stdout == "new\n")

        // cli.md "Names of one item" (issue 28): a plain HOST names the portless item only; the
        // port-8443 item is then the one item left, which the plain name reaches next.
        let deleted = try await sandbox.run(["delete", "example.com", "alice", "--format", "json"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try deleted.json()["deleted"] as? Int == 1)
        let deletedPort = try await sandbox.run(["delete", "example.com", "alice", "--format", "json"])
        #expect(try deletedPort.json()["deleted"] as? Int == 1)
        #expect(try await sandbox.run(["delete", "example.com", "alice"]).status == 44)
        let shownGone = try await sandbox.run(["show", "example.com", "alice", "--format", "json"])
        #expect(shownGone.status == 44)
        #expect(try shownGone.errorJSON()["status"] as? Int == -25300)
        #expect(try await sandbox.listItems().count == 1)
    }

    @Test("password sources: a file (0600) works; group-readable is 28; missing is 66; none without a terminal is 29")
    func passwordSources() async throws {
        let sandbox = try StoreSandbox()
        let good = try Self.privateFile(sandbox, "pw.txt", "from-file\r\n")
        #expect(try await sandbox.run(["add", "a.example", "u", "--password-file", good]).status == 0)
        #expect(try await sandbox.run(["show", "a.example", "u"]).stdout == "from-file\n")

        let loose = try Self.privateFile(sandbox, "loose.txt", "loose-secret\n", mode: 0o640)
        let insecure = try await sandbox.run(["add", "b.example", "u", "--password-file", loose])
        #expect(insecure.status == 28)
        #expect(!insecure.stderr.contains("loose-secret"))

        #expect(try await sandbox.run(["add", "b.example", "u", "--password-file", sandbox.path("nope")]).status == 66)

        // No source and stdin is a pipe, not a terminal: fail at once, never wait.
        let started = Date()
        let none = try await sandbox.run(["add", "b.example", "u"])
        #expect(none.status == 29)
        #expect(Date().timeIntervalSince(started) < 30)

        #expect(try await sandbox.run(["add", "b.example", "u", "--password-stdin"], stdin: "").status == 50)
        let long = String(repeating: "x", count: 4097)
        #expect(try await sandbox.run(["add", "b.example", "u", "--password-stdin"], stdin: long).status == 50)
        let max = String(repeating: "y", count: 4096)
        #expect(try await sandbox.run(["add", "c.example", "u", "--password-stdin"], stdin: max + "\n").status == 0)
        #expect(try await sandbox.run(["show", "c.example", "u"]).stdout == max + "\n")
        #expect(try await sandbox.listItems().count == 2)
    }

    @Test("bad sites and usage: invalidParameter 50, usage 64")
    func badInput() async throws {
        let sandbox = try StoreSandbox()
        for site in ["https://example.com", "exa mple.com", "example.com:0", "example.com:70000", "bücher.de", "a..b", ""] {
            let result = try await sandbox.add(site, "u", password: "pw")
            #expect(result.status == 50, "\(site): \(result.status) \(result.stderr)")
        }
        #expect(try await sandbox.run(["add", "example.com", "--password-stdin"], stdin: "pw\n").status == 64)
        #expect(try await sandbox.run(["add", "example.com", "u", "--password-stdin", "--password-file", "/x"]).status == 64)
        #expect(try await sandbox.run(["list", "--passphrase-stdin", "--passphrase-fd", "3"]).status == 64)
        #expect(!FileManager.default.fileExists(atPath: sandbox.defaultStorePath))
    }

    @Test("list, show and delete on a store that does not exist: 66, nothing created")
    func missingStore() async throws {
        let sandbox = try StoreSandbox()
        #expect(try await sandbox.run(["list"]).status == 66)
        #expect(try await sandbox.run(["show", "example.com", "a"]).status == 66)
        #expect(try await sandbox.run(["delete", "example.com", "a"]).status == 66)
        #expect(!FileManager.default.fileExists(atPath: sandbox.defaultStorePath))
    }

    @Test("\"Passwords not saved\": add --never-save blocks saving (45), list marks it, delete --never-save lifts it")
    func neverSaveEntries() async throws {
        let sandbox = try StoreSandbox()
        let never = try await sandbox.run(["add", "bank.example", "--never-save", "--format", "json"])
        #expect(never.status == 0, "\(never.stderr)")
        #expect(try never.json()["operation"] as? String == "added")
        #expect(try await sandbox.run(["add", "bank.example", "--never-save", "--format", "json"]).json()["operation"] as? String == "unchanged")
        let blocked = try await sandbox.add("bank.example", "alice", password: "pw")
        #expect(blocked.status == 45)
        let items = try await sandbox.listItems()
        #expect(items.count == 1)
        #expect(items.first?["account"] as? String == "Passwords not saved")
        #expect(items.first?["negative"] as? Bool == true)
        // A negative entry has no password to show.
        #expect(try await sandbox.run(["show", "bank.example", "Passwords not saved"]).status == 44)
        #expect(try await sandbox.run(["delete", "bank.example", "--never-save"]).status == 0)
        #expect(try await sandbox.run(["delete", "bank.example", "--never-save"]).status == 44)
        #expect(try await sandbox.add("bank.example", "alice", password: "pw").status == 0)
    }

    @Test("init: key-file store, then 24 when it exists; explicit --store/--key-file and their env variables")
    func initStore() async throws {
        let sandbox = try StoreSandbox()
        let created = try await sandbox.run(["init", "--format", "json"])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(try created.json()["keySource"] as? String == "keyFile")
        #expect(try await sandbox.run(["init"]).status == 24)

        let store = sandbox.path("elsewhere/k.swcred")
        let key = sandbox.path("keys/k.key")
        #expect(try await sandbox.run(["init", "--store", store, "--key-file", key]).status == 0)
        #expect(try await sandbox.run(["add", "x.example", "u", "--password-stdin"],
                                stdin: "pw\n", environment: ["SWCRED_STORE": store, "SWCRED_KEY_FILE": key]).status == 0)
        #expect(try await sandbox.run(["show", "x.example", "u", "--store", store, "--key-file", key]).stdout == "pw\n")
        // The default store is still empty.
        #expect(try await sandbox.listItems().isEmpty)
    }

    @Test("T7: wrong key → 20: another store's key file, a wrong passphrase, the other key source")
    func wrongKey() async throws {
        let sandbox = try StoreSandbox()
        #expect(try await sandbox.add("example.com", "alice", password: "pw").status == 0)
        let before = try StoreSandbox.bytes(sandbox.defaultStorePath)

        // Another store's (valid) key file.
        let other = try StoreSandbox()
        #expect(try await other.add("example.com", "alice", password: "pw").status == 0)
        let otherKey = try #require(try FileManager.default.contentsOfDirectory(atPath: other.path("config/swcred")).first)
        let otherKeyPath = other.path("config/swcred/\(otherKey)")
        let wrongFile = try await sandbox.run(["list", "--key-file", otherKeyPath, "--format", "json"])
        #expect(wrongFile.status == 20, "\(wrongFile.stderr)")
        #expect(try wrongFile.errorJSON()["code"] as? String == "wrongKey")
        #expect(try await sandbox.add("example.com", "bob", password: "pw", ["--key-file", otherKeyPath]).status == 20)

        // The key-file store opened with a passphrase: wrong key source.
        let phrase = try Self.privateFile(sandbox, "phrase", "some passphrase\n")
        #expect(try await sandbox.run(["list", "--passphrase-file", phrase]).status == 20)
        #expect(try StoreSandbox.bytes(sandbox.defaultStorePath) == before)

        // A passphrase store opened with a wrong passphrase, and with a key file.
        let pstore = sandbox.path("p.swcred")
        #expect(try await sandbox.run(["init", "--store", pstore, "--passphrase-file", phrase, "--kdf", "test"]).status == 0)
        let wrongPhrase = try Self.privateFile(sandbox, "wrong", "not the passphrase\n")
        #expect(try await sandbox.run(["list", "--store", pstore, "--passphrase-file", wrongPhrase]).status == 20)
        #expect(try await sandbox.run(["list", "--store", pstore, "--key-file", otherKeyPath]).status == 20)
        #expect(try await sandbox.run(["list", "--store", pstore, "--passphrase-file", phrase]).status == 0)
    }

    @Test("passphrase round trip (stdin, file, fd, SWCRED_PASSPHRASE_FILE) and rekey to a key file and back")
    func passphraseModeAndRekey() async throws {
        let sandbox = try StoreSandbox()
        let store = sandbox.path("p/keychain.swcred")
        let phrase = try Self.privateFile(sandbox, "phrase", "tr0ub4dor & 3\n")
        let initResult = try await sandbox.run(["init", "--store", store, "--passphrase-stdin", "--kdf", "test", "--format", "json"],
                                         stdin: "tr0ub4dor & 3\n")
        #expect(initResult.status == 0, "\(initResult.stderr)")
        #expect(try initResult.json()["keySource"] as? String == "passphrase")

        // Password and passphrase cannot both come from stdin.
        #expect(try await sandbox.run(["add", "a.example", "u", "--store", store, "--password-stdin", "--passphrase-stdin"],
                                stdin: "x\n").status == 64)
        #expect(try await sandbox.run(["add", "a.example", "u", "--store", store, "--password-stdin", "--passphrase-file", phrase],
                                stdin: "pw-a\n").status == 0)
        #expect(try await sandbox.run(["show", "a.example", "u", "--store", store, "--passphrase-stdin"],
                                stdin: "tr0ub4dor & 3").stdout == "pw-a\n")
        #expect(try await sandbox.run(["show", "a.example", "u", "--store", store],
                                environment: ["SWCRED_PASSPHRASE_FILE": phrase]).stdout == "pw-a\n")
        // A passphrase file others can read is refused (28), through the option and the variable.
        let loosePhrase = try Self.privateFile(sandbox, "loose-phrase", "tr0ub4dor & 3\n", mode: 0o604)
        #expect(try await sandbox.run(["show", "a.example", "u", "--store", store, "--passphrase-file", loosePhrase]).status == 28)
        #expect(try await sandbox.run(["show", "a.example", "u", "--store", store],
                                environment: ["SWCRED_PASSPHRASE_FILE": loosePhrase]).status == 28)
        // A passphrase store with no passphrase source and no terminal: 29.
        #expect(try await sandbox.run(["show", "a.example", "u", "--store", store]).status == 29)
        // An inherited descriptor: the shell opens the file on fd 7.
        let viaFD = try sandbox.startShell("exec 7<\"$PHRASE\"; \"$SWCRED\" show a.example u --store \"$STORE\" --passphrase-fd 7",
                                           environment: ["PHRASE": phrase, "STORE": store]).wait()
        #expect(viaFD.status == 0, "\(viaFD.stderr)")
        #expect(viaFD.stdout == "pw-a\n")

        // Rekey to a new key file: the old passphrase no longer opens it, the key file does.
        let key = sandbox.path("new.key")
        let toKey = try await sandbox.run(["rekey", "--store", store, "--passphrase-file", phrase, "--new-key-file", key, "--format", "json"])
        #expect(toKey.status == 0, "\(toKey.stderr)")
        #expect(StoreSandbox.mode(key) == 0o600)
        #expect(try await sandbox.run(["list", "--store", store, "--passphrase-file", phrase]).status == 20)
        #expect(try await sandbox.run(["show", "a.example", "u", "--store", store, "--key-file", key]).stdout == "pw-a\n")

        // And back to a new passphrase (read from a descriptor-free source: a file).
        let phrase2 = try Self.privateFile(sandbox, "phrase2", "second passphrase\n")
        let toPhrase = try await sandbox.run(["rekey", "--store", store, "--key-file", key, "--new-passphrase-file", phrase2, "--kdf", "test"])
        #expect(toPhrase.status == 0, "\(toPhrase.stderr)")
        #expect(try await sandbox.run(["list", "--store", store, "--key-file", key]).status == 20)
        #expect(try await sandbox.run(["show", "a.example", "u", "--store", store, "--passphrase-file", phrase2]).stdout == "pw-a\n")
    }

    @Test("T6 (CLI): a corrupt store is 21 and the file untouched; truncation: 21; not a store: 21")
    func corruptStore() async throws {
        let sandbox = try StoreSandbox()
        #expect(try await sandbox.add("example.com", "alice", password: "pw").status == 0)
        let path = sandbox.defaultStorePath
        let original = try StoreSandbox.bytes(path)

        // Flip a byte in the payload (the last byte is in the AEAD tag).
        var flipped = original
        flipped[flipped.count - 1] ^= 0x01
        try Data(flipped).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        for arguments in [["list"], ["show", "example.com", "alice"], ["add", "example.com", "bob", "--password-stdin"]] {
            let result = try await sandbox.run(arguments + ["--format", "json"], stdin: "pw\n")
            #expect(result.status == 21, "\(arguments): \(result.stderr)")
            #expect(try result.errorJSON()["code"] as? String == "corruptPayload")
            #expect(try StoreSandbox.bytes(path) == flipped, "the corrupt file was changed by \(arguments)")
        }

        // Truncated by one byte, and cut inside the header.
        for length in [original.count - 1, 20] {
            try Data(original.prefix(length)).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o600)
            let result = try await sandbox.run(["list"])
            #expect(result.status == 21, "length \(length): \(result.stderr)")
            #expect(try StoreSandbox.bytes(path).count == length)
        }

        // Something that is not a store at all.
        try Data("hello, world\n".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        let notAStore = try await sandbox.run(["list", "--format", "json"])
        #expect(notAStore.status == 21)
        #expect(try notAStore.errorJSON()["code"] as? String == "notAStore")
    }

    @Test("T16: with --rollback-protection, a replayed older copy is 23; --allow-rollback warns and proceeds")
    func rollback() async throws {
        let sandbox = try StoreSandbox()
        #expect(try await sandbox.run(["init", "--rollback-protection"]).status == 0)
        #expect(try await sandbox.add("example.com", "alice", password: "pw").status == 0)
        let path = sandbox.defaultStorePath
        let old = try StoreSandbox.bytes(path)
        #expect(try await sandbox.add("example.com", "bob", password: "pw").status == 0)
        try Data(old).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)

        let replayed = try await sandbox.run(["list", "--format", "json"])
        #expect(replayed.status == 23, "\(replayed.stderr)")
        #expect(try replayed.errorJSON()["code"] as? String == "rollbackDetected")
        #expect(try await sandbox.add("example.com", "carol", password: "pw").status == 23)
        #expect(try StoreSandbox.bytes(path) == old)

        let allowed = try await sandbox.run(["list", "--allow-rollback", "--format", "json"])
        #expect(allowed.status == 0)
        #expect(allowed.stderr.contains("warning"))
        #expect((try allowed.json()["items"] as? [Any])?.count == 1)
        // A write with the override lands above the mark, so plain reads work again.
        #expect(try await sandbox.add("example.com", "carol", password: "pw", ["--allow-rollback"]).status == 0)
        #expect(try await sandbox.listItems().count == 2)
        let explained = try await sandbox.run(["explain", "rollbackDetected"])
        #expect(explained.stdout.contains("--rollback-protection off"))
    }

    @Test("T16 (issue 28): a store seeded once and copied for each test keeps working; settings turns protection on and off")
    func copiedFixtureStore() async throws {
        let sandbox = try StoreSandbox()
        #expect(try await sandbox.add("example.com", "seed", password: "pw").status == 0)
        let path = sandbox.defaultStorePath
        let fixture = try StoreSandbox.bytes(path)
        for account in ["one", "two", "three"] {
            try Data(fixture).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o600)
            let added = try await sandbox.add("example.com", account, password: "pw")
            #expect(added.status == 0, "\(added.stderr)")
            #expect(try await sandbox.listItems().count == 2)
        }
        let shown = try await sandbox.run(["settings", "--format", "json"])
        #expect(try shown.json()["rollbackProtection"] as? Bool == false)
        #expect(try await sandbox.run(["settings", "--rollback-protection", "on"]).status == 0)
        let protected = try StoreSandbox.bytes(path)
        #expect(try await sandbox.add("example.com", "four", password: "pw").status == 0)
        try Data(protected).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        #expect(try await sandbox.run(["list"]).status == 23)
        let off = try await sandbox.run(["settings", "--rollback-protection", "off", "--allow-rollback", "--format", "json"])
        #expect(off.status == 0, "\(off.stderr)")
        #expect(try off.json()["rollbackProtection"] as? Bool == false)
        try Data(fixture).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        #expect(try await sandbox.run(["list"]).status == 0)
    }

    @Test("end to end with the default (moderate) Argon2id preset: init, add, show, wrong passphrase")
    func moderatePresetEndToEnd() async throws {
        let sandbox = try StoreSandbox("swcred-moderate")
        let store = sandbox.path("m.swcred")
        let phrase = try Self.privateFile(sandbox, "phrase", "a moderate passphrase\n")
        let created = try await sandbox.run(["init", "--store", store, "--passphrase-file", phrase, "--format", "json"])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(try created.json()["kdf"] as? String == "moderate")
        #expect(try await sandbox.run(["add", "m.example", "u", "--store", store, "--passphrase-file", phrase, "--password-stdin"],
                                stdin: "pw-m\n").status == 0)
        #expect(try await sandbox.run(["show", "m.example", "u", "--store", store, "--passphrase-file", phrase]).stdout == "pw-m\n")
        #expect(try await sandbox.run(["show", "m.example", "u", "--store", store, "--passphrase-stdin"], stdin: "wrong\n").status == 20)
    }
}
