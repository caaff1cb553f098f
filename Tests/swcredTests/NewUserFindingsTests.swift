import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 28: what a new user hit in the first hour, each as a test that failed on b6be35c. The
/// inputs that used to trap run as real processes (a trap in process would end the test run).
@Suite("Issue 28: a new user's first hour")
struct NewUserFindingsTests {
    /// The 175-byte binary plist that trapped FoundationEssentials' decoder.
    static let trappingPlist = Data(
        base64Encoded:
            "YnBsaXN0MDDSAQIDBF8QFmFwcGxpY2F0aW9uLWlkZW50aWZpZSZvEF9ybWMuYXBwbGUuZGV2ZWxvcGVyLmFzc29jaWF0ZWQtZG+TnpaRjKDv3UtMTU5PMTM1Nzk7Y29tLmV4YW1wbGUubmV3c6EFXxAXYXBwbGlua2w6c2VnYWN5LmV4YW1wbGUIDSZPbW8AAAAAAAABAQAAAAAAAAAGAAAAAAAAAAAAAAAAAAAAiQ=="
    )!

    @Test("1: an over-long account on a store that has items is invalidParameter (50), not a trap; the store is unchanged")
    func longAccountOnExistingStore() throws {
        let sandbox = try StoreSandbox("swcred-long-account")
        let seeded = try CLI.spawn(["add", "a.example", "alice", "--password-stdin"], stdin: "pw\n", home: sandbox.home)
        #expect(seeded.status == 0, "\(seeded.stderr)")
        let before = try StoreSandbox.bytes(sandbox.defaultStorePath)
        let long = String(repeating: "a", count: 100_000)
        let result = try CLI.spawn(["add", "big.example", long, "--password-stdin"], stdin: "x\n", home: sandbox.home)
        #expect(result.status == 50, "\(result.stderr.prefix(400))")
        #expect(result.stderr.contains("account is 100000 bytes"))
        #expect(try StoreSandbox.bytes(sandbox.defaultStorePath) == before)
    }

    @Test("1: the binary plist that trapped FoundationEssentials is malformedEntitlements (65) in every command that reads it")
    func trappingBinaryPlist() throws {
        let directory = try CLI.temporaryDirectory("swcred-bplist")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("crash.entitlements").path
        try Self.trappingPlist.write(to: URL(fileURLWithPath: path))
        for arguments in [
            ["entitlements", path],
            ["verify", "--entitlements", path, "--aasa-dir", CLI.repositoryRoot.appendingPathComponent("Fixtures/sites").path],
            ["lint", "--entitlements", path],
        ] {
            let result = try CLI.spawn(arguments + ["--format", "json"])
            #expect(result.status == 65, "\(arguments[0]): \(result.stderr.prefix(400))")
            #expect(try result.errorJSON()["code"] as? String == "malformedEntitlements")
        }
    }

    @Test("3: show and delete address the item a list line names, never another port's")
    func namesOfOneItem() async throws {
        let sandbox = try StoreSandbox("swcred-item-names")
        #expect(try await sandbox.add("example.com:8443", "bob", password: "port-pw").status == 0)
        #expect(try await sandbox.add("example.com", "bob", password: "plain-pw").status == 0)
        #expect(try await sandbox.run(["show", "example.com", "bob"]).stdout == "plain-pw\n")
        #expect(try await sandbox.run(["show", "example.com:8443", "bob"]).stdout == "port-pw\n")
        let deleted = try await sandbox.run(["delete", "example.com", "bob", "--format", "json"])
        #expect(try deleted.json()["deleted"] as? Int == 1)
        let left = try await sandbox.listItems()
        #expect(left.count == 1)
        #expect(left.first?["port"] as? Int == 8443)
        // Now only the port-8443 item: a plain HOST names it (the one item of that host and account).
        #expect(try await sandbox.run(["show", "example.com", "bob"]).stdout == "port-pw\n")
        // Two ports and no portless item: ambiguous, exit 64, the candidates listed, nothing deleted.
        #expect(try await sandbox.add("example.com:9000", "bob", password: "other").status == 0)
        let ambiguous = try await sandbox.run(["delete", "example.com", "bob"])
        #expect(ambiguous.status == 64, "\(ambiguous.stderr)")
        #expect(ambiguous.stderr.contains("example.com:8443 bob") && ambiguous.stderr.contains("example.com:9000 bob"))
        #expect(try await sandbox.run(["show", "example.com", "bob"]).status == 64)
        #expect(try await sandbox.listItems().count == 2)
    }

    @Test("4: input that cannot be read is 66 naming the path, not a verdict")
    func unreadableSources() async throws {
        let app = CLI.repositoryRoot.appendingPathComponent("Fixtures/apps/TacoShop.entitlements").path
        let file = CLI.repositoryRoot.appendingPathComponent("README.md").path
        for dir in ["/no/such/dir", file] {
            let verify = try await CLI.run(["verify", "--entitlements", app, "--aasa-dir", dir])
            #expect(verify.status == 66, "verify --aasa-dir \(dir): \(verify.stderr)")
            #expect(verify.stderr.contains(dir))
            let match = try await CLI.run(["match", "https://tacos.example/taco/1", "--aasa-dir", dir])
            #expect(match.status == 66, "match --aasa-dir \(dir): \(match.stderr)")
        }
        let directory = CLI.repositoryRoot.appendingPathComponent("Fixtures").path
        let asFile = try await CLI.run(["match", "https://tacos.example/taco/1", "--aasa", directory])
        #expect(asFile.status == 66, "\(asFile.stderr)")
    }

    @Test("4: request --pick with an account the picker does not offer is a usage error (64), not a cancel")
    func pickOfMissingAccount() async throws {
        let sandbox = try StoreSandbox("swcred-pick")
        #expect(try await sandbox.add("tacos.example", "alice@example.com", password: "pw").status == 0)
        let app = ["--entitlements", CLI.repositoryRoot.appendingPathComponent("Fixtures/apps/TacoShop.entitlements").path,
                   "--aasa-dir", CLI.repositoryRoot.appendingPathComponent("Fixtures/sites").path]
        let missing = try await sandbox.run(["request", "tacos.example", "--pick", "nosuch"] + app)
        #expect(missing.status == 64, "\(missing.stderr)")
        #expect(missing.stderr.contains("alice@example.com"))
        #expect(try await sandbox.run(["request", "tacos.example", "--pick", "cancel"] + app).status == 13)
        #expect(try await sandbox.run(["request", "tacos.example", "--pick", "alice@example.com"] + app).status == 0)
    }

    @Test("5: --format json gives one JSON error object on stderr for argument errors too")
    func jsonArgumentErrors() async throws {
        for arguments in [
            ["list", "--format", "json", "--bogus"],
            ["show", "tacos.example", "--format", "json"],
            ["generate", "--count", "0", "--format", "json"],
            ["generate", "--format=json", "--count", "-1"],
        ] {
            let result = try await CLI.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            let error = try result.errorJSON()
            #expect(error["code"] as? String == "usage", "\(arguments): \(result.stderr)")
            #expect((error["message"] as? String)?.isEmpty == false)
        }
        let text = try await CLI.run(["generate", "--count", "-1"])
        #expect(text.status == 64)
        #expect(text.stderr.contains("between 1 and"), "\(text.stderr)")
    }

    @Test("7: a misspelt subcommand gets a suggestion; lint's summary counts notes; rules errors do not claim to go on")
    func smallerFindings() async throws {
        let typo = try await CLI.run(["lst"])
        #expect(typo.status == 64)
        #expect(typo.stderr.contains("did you mean 'list'?"), "\(typo.stderr)")
        let garbage = try await CLI.run(["generate", "--rules", "garbage"])
        #expect(garbage.status == 65)
        #expect(garbage.stderr.contains("refuses"), "\(garbage.stderr)")
        let lint = try await CLI.run(
            ["lint", CLI.repositoryRoot.appendingPathComponent("Fixtures/sites/tacos.example/.well-known/apple-app-site-association").path,
             "--format", "json"])
        let report = try lint.json()
        let findings = report["findings"] as? [[String: Any]] ?? []
        let notes = findings.filter { $0["severity"] as? String == "note" }.count
        #expect(report["notes"] as? Int == notes)
    }

    @Test("7: import reports every invalid row, not only the first, and writes nothing")
    func importReportsEveryInvalidRow() async throws {
        let sandbox = try StoreSandbox("swcred-import-rows")
        let csv = """
            name,url,username,password,note
            a,https://a.example/,alice,pw1,
            b,,bob,pw2,
            c,https://c.example/,carol,,
            d,https://d.example/,dave,pw4,

            """
        let result = try await sandbox.run(["import", "-", "--from", "chrome"], stdin: csv)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("2 rows are invalid"), "\(result.stderr)")
        #expect(result.stderr.contains("line 3") && result.stderr.contains("line 4"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.defaultStorePath))
    }

    @Test("7: help batch's example survives the help's wrapping and runs when copied into a shell")
    func batchHelpExampleRuns() throws {
        let help = try CLI.spawn(["help", "batch"])
        #expect(help.status == 0)
        let lines = help.stdout.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "Example:" })
        let example = lines[(start + 1)...].prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(example.count >= 2)
        for line in example { #expect(line.count <= 80, "wrapped: \(line)") }
        let home = try CLI.temporaryDirectory("swcred-batch-help")
        defer { try? FileManager.default.removeItem(at: home) }
        let binDir = CLI.binary.deletingLastPathComponent().path
        let run = try CLI.runProgram(
            URL(fileURLWithPath: "/bin/bash"), ["-c", "set -o pipefail; " + example.joined(separator: "\n")],
            environment: ["PATH": binDir + ":/usr/bin:/bin", "HOME": home.path, "SWIFT_BACKTRACE": "enable=no"],
            currentDirectory: CLI.repositoryRoot)
        // One result line for request 1 (nothing is saved yet: exit 44 for that line).
        #expect(run.stdout.contains("\"id\":1") || run.stdout.contains("\"id\" : 1"), "\(run.stdout) \(run.stderr)")
        #expect([0, 44].contains(run.status), "\(run.stderr)")
    }

    @Test("7: init --kdf's help names every preset this build accepts")
    func kdfHelpNamesWhatIsAccepted() throws {
        let help = try CLI.spawn(["init", "--help"])
        let accepted = ["interactive", "moderate", "sensitive", "test"].filter { preset in
            (try? CLI.spawn(["init", "--kdf", preset, "--store", "/dev/null/x", "--passphrase-stdin"], stdin: "p\n"))
                .map { $0.status != 64 } ?? false
        }
        for preset in accepted { #expect(help.stdout.contains(preset), "--kdf accepts \(preset) but --help does not say so") }
    }
}
