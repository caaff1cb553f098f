import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `swcred import` and `swcred export` as real processes (cli.md "swcred import", "swcred export").
@Suite("Import and export CLI")
struct ImportExportCommandTests {
    static let exports = CLI.fixtures.appendingPathComponent("exports")

    static func fixture(_ name: String) -> String { exports.appendingPathComponent(name).path }

    static func expected(_ stem: String) throws -> String {
        try String(contentsOf: exports.appendingPathComponent("expected/\(stem).jsonl"), encoding: .utf8)
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test("CLI-IMPORT: every fixture imports (JSON output per the schema) and exports as the expected JSON lines",
          arguments: ["safari.csv", "chrome.csv", "firefox.csv", "bitwarden.csv", "1password.csv", "swcred.jsonl"])
    func fixtureImport(_ name: String) async throws {
        let sandbox = try StoreSandbox()
        var validator = JSONSchemaValidator.repository
        let imported = try await sandbox.run(["import", Self.fixture(name), "--format", "json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let json = try imported.json()
        #expect(try validator.validate(json, against: "import") == [])
        #expect(json["dryRun"] as? Bool == false)
        let stem = String(name.split(separator: ".")[0])
        let exported = try await sandbox.run(["export"])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout == (try Self.expected(stem)))
        let rows = json["rows"] as? Int ?? -1
        let counted = ["added", "updated", "skipped", "unchanged"].reduce(0) { $0 + (json[$1] as? Int ?? 0) }
        #expect(rows == counted)
        // A second import of the same file changes nothing.
        let again = try await sandbox.run(["import", Self.fixture(name), "--format", "json"])
        #expect(again.status == 0)
        #expect(try again.json()["added"] as? Int == 0)
    }

    @Test("CLI-EXPORT: jsonl, safari and chrome round-trip through export and import losslessly",
          arguments: ["jsonl", "safari", "chrome"])
    func roundTrip(_ format: String) async throws {
        let first = try StoreSandbox()
        for name in ["safari.csv", "chrome.csv", "firefox.csv", "swcred.jsonl"] {
            let result = try await first.run(["import", Self.fixture(name), "--on-conflict", "update"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let file = first.path("export.\(format)")
        let exported = try await first.run(["export", "--to", format, "-o", file, "--format", "json"])
        #expect(exported.status == 0, "\(exported.stderr)")
        var validator = JSONSchemaValidator.repository
        #expect(try validator.validate(try exported.json(), against: "export") == [])
        #expect(StoreSandbox.mode(file) == 0o600)

        let second = try StoreSandbox()
        let imported = try await second.run(["import", file, "--from", format, "--format", "json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try await first.run(["export"]).stdout == (try second.run(["export"]).stdout))
        if format == "jsonl" {
            // The JSON lines export is canonical: the fixture's expected form exports to itself.
            let third = try StoreSandbox()
            #expect(try await third.run(["import", Self.fixture("expected/swcred.jsonl")]).status == 0)
            #expect(try await third.run(["export"]).stdout == (try Self.expected("swcred")))
        }
    }

    @Test("CLI-IMPORT: one bad row in the middle: exit 65 naming line and column, no password, store byte-identical")
    func badRowLeavesStoreUntouched() async throws {
        let sandbox = try StoreSandbox()
        #expect(try await sandbox.add("existing.example", "zoe", password: "zoe-pw").status == 0)
        let before = try #require(Self.bytes(sandbox.defaultStorePath))
        var rows = ["name,url,username,password,note"]
        for index in 0..<50 { rows.append("s\(index),https://s\(index).example/,u\(index),ROW-SECRET-\(index),") }
        rows.insert("broken,https:///nohost,u,THE-BAD-ROW-SECRET,", at: 26)
        let path = try StoreCommandTests.privateFile(sandbox, "bad.csv", rows.joined(separator: "\n") + "\n")
        let result = try await sandbox.run(["import", path, "--format", "json"])
        #expect(result.status == 65, "\(result.stderr)")
        let error = try result.errorJSON()
        #expect(error["code"] as? String == "malformedInput")
        let message = error["message"] as? String ?? ""
        #expect(message.contains("line 27, column 8"), "\(message)")
        #expect(!result.stderr.contains("SECRET") && !result.stdout.contains("SECRET"))
        #expect(Self.bytes(sandbox.defaultStorePath) == before)
    }

    @Test("CLI-IMPORT: a conflict under fail exits 45 and writes nothing; skip and update then succeed")
    func conflictPolicies() async throws {
        let sandbox = try StoreSandbox()
        #expect(try await sandbox.add("tacos.example", "dave", password: "older").status == 0)
        let before = try #require(Self.bytes(sandbox.defaultStorePath))
        let failed = try await sandbox.run(["import", Self.fixture("chrome.csv"), "--format", "json"])
        #expect(failed.status == 45, "\(failed.stderr)")
        #expect(try failed.errorJSON()["code"] as? String == "duplicateItem")
        #expect(!failed.stderr.contains("Dave-Pass-2024"))
        #expect(Self.bytes(sandbox.defaultStorePath) == before)

        let dry = try await sandbox.run(["import", Self.fixture("chrome.csv"), "--on-conflict", "update", "--dry-run", "--format", "json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        let dryJSON = try dry.json()
        #expect(dryJSON["dryRun"] as? Bool == true)
        #expect(dryJSON["updated"] as? Int == 1 && dryJSON["added"] as? Int == 2 && dryJSON["skipped"] as? Int == 1)
        #expect(Self.bytes(sandbox.defaultStorePath) == before)

        let skipped = try await sandbox.run(["import", Self.fixture("chrome.csv"), "--on-conflict", "skip", "--format", "json"])
        #expect(skipped.status == 0)
        #expect(try skipped.json()["skipped"] as? Int == 2)
        #expect(try await sandbox.run(["show", "tacos.example", "dave"]).stdout == "older\n")

        let updated = try await sandbox.run(["import", Self.fixture("chrome.csv"), "--on-conflict", "update", "--format", "json"])
        #expect(updated.status == 0)
        #expect(try updated.json()["updated"] as? Int == 1)
        #expect(try await sandbox.run(["show", "tacos.example", "dave"]).stdout == "Dave-Pass-2024\n")
    }

    @Test("CLI-IMPORT: a file over the 16 MiB import limit is refused from its size (27), the store untouched")
    func oversizedFile() async throws {
        let sandbox = try StoreSandbox()
        let path = sandbox.path("huge.csv")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 100 << 20)
        try handle.close()
        let result = try await sandbox.run(["import", path])
        #expect(result.status == 27, "\(result.stderr)")
        #expect(result.stderr.contains("import limit"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.defaultStorePath))
    }

    @Test("CLI-IMPORT: standard input, --from, and usage errors")
    func stdinAndUsage() async throws {
        let sandbox = try StoreSandbox()
        let csv = try String(contentsOfFile: Self.fixture("safari.csv"), encoding: .utf8)
        let result = try await sandbox.run(["import", "-", "--format", "json"], stdin: csv)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try result.json()["format"] as? String == "safari")
        #expect(try await sandbox.run(["import", Self.fixture("safari.csv"), "--from", "chrome"]).status == 65)
        #expect(try await sandbox.run(["import", Self.fixture("safari.csv"), "--from", "lastpass"]).status == 64)
        #expect(try await sandbox.run(["import", Self.fixture("safari.csv"), "--on-conflict", "merge"]).status == 64)
        #expect(try await sandbox.run(["import", sandbox.path("missing.csv")]).status == 66)
        // A store without passwords exports an empty file, which reads back with --from jsonl.
        let empty = try StoreSandbox()
        #expect(try await empty.run(["init"]).status == 0)
        let exported = try await empty.run(["export"])
        #expect(exported.status == 0 && exported.stdout.isEmpty, "\(exported.stderr)")
        let reimported = try await empty.run(["import", "-", "--from", "jsonl", "--format", "json"], stdin: exported.stdout)
        #expect(reimported.status == 0, "\(reimported.stderr)")
        #expect(try reimported.json()["rows"] as? Int == 0)
        let auto = try await empty.run(["import", "-"], stdin: exported.stdout)
        #expect(auto.status == 65 && auto.stderr.contains("--from jsonl"), "\(auto.stderr)")
    }

    @Test("CLI-EXPORT: -o is created 0600 with O_EXCL; --force replaces and ends at 0600; never negative entries")
    func exportFile() async throws {
        let sandbox = try StoreSandbox()
        #expect(try await sandbox.run(["import", Self.fixture("swcred.jsonl")]).status == 0)
        #expect(try await sandbox.run(["add", "never.example", "--never-save"]).status == 0)
        let path = try StoreCommandTests.privateFile(sandbox, "out.jsonl", "old contents\n", mode: 0o644)
        let refused = try await sandbox.run(["export", "-o", path, "--format", "json"])
        #expect(refused.status == 74, "\(refused.stderr)")
        #expect(try refused.errorJSON()["code"] as? String == "outputExists")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old contents\n")
        let forced = try await sandbox.run(["export", "-o", path, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(StoreSandbox.mode(path) == 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == (try Self.expected("swcred")))
        // A symbolic link is not followed.
        let link = sandbox.path("link.jsonl")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: sandbox.path("target.jsonl"))
        #expect(try await sandbox.run(["export", "-o", link, "--force"]).status == 74)
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("target.jsonl")))
        #expect(try await sandbox.run(["export", "--force"]).status == 64)
        #expect(try await sandbox.run(["export", "--to", "chrome", "--format", "json"]).status == 64)
        #expect(try await sandbox.run(["export", "--to", "csv"]).status == 64)
    }
}
