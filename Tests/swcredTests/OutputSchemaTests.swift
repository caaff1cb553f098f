import Foundation
import Testing

/// One JSON vocabulary: every command's `--format json` output, produced for real on the bundled
/// fixtures, validates against its schema in `Schemas/` (fetch is validated against a live HTTPS
/// server in the fetch tests, batch in the batch tests), and every command has a schema.
@Suite("JSON output of every command validates against its schema")
struct OutputSchemaTests {
    static let app = ["--entitlements", CLI.fixtures.appendingPathComponent("apps/TacoShop.entitlements").path,
                      "--aasa-dir", CLI.fixtures.appendingPathComponent("sites").path]
    static let tacosFile = CLI.fixtures.appendingPathComponent("sites/tacos.example/.well-known/apple-app-site-association").path

    @Test("a walk through every command on one store, each output checked")
    func everyCommand() async throws {
        let home = try CLI.temporaryDirectory("swcred-schemas")
        defer { try? FileManager.default.removeItem(at: home) }
        var validator = JSONSchemaValidator.repository
        var checked: Set<String> = []

        func check(_ schema: String, _ arguments: [String], stdin: String? = nil, expect status: Int32 = 0) async throws {
            let result = try await CLI.run(arguments + ["--format", "json"], stdin: stdin, home: home)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            let lines = schema == "generate" ? result.stdout.split(separator: "\n").map(String.init) : [result.stdout]
            for line in lines {
                let document = try JSONSerialization.jsonObject(with: Data(line.utf8))
                #expect(try validator.validate(document, against: schema) == [], "\(arguments)")
            }
            checked.insert(schema)
        }

        try await check("init", ["init"])
        try await check("entitlements", ["entitlements", CLI.fixtures.appendingPathComponent("apps/TacoShop.entitlements").path])
        try await check("lint", ["lint", CLI.fixtures.appendingPathComponent("sites/broken.example/.well-known/apple-app-site-association").path], expect: 65)
        try await check("match", ["match", "https://tacos.example/coupon/2345", "--aasa", Self.tacosFile])
        try await check("match", ["match", "https://tacos.example/account/x", "--aasa", Self.tacosFile], expect: 1)
        try await check("verify", ["verify"] + Self.app, expect: 10)
        try await check("associations", ["associations"] + Self.app)
        try await check("add", ["add", "tacos.example", "alice", "--password-stdin"], stdin: "pw\n")
        try await check("add", ["add", "tacos.example", "bob", "--password-stdin"] + Self.app, stdin: "pw2\n")
        try await check("request", ["request", "tacos.example", "--pick", "bob"] + Self.app)
        try await check("request", ["request", "tacos.example", "--pick", "cancel"] + Self.app, expect: 13)
        try await check("list", ["list"])
        try await check("show", ["show", "tacos.example", "alice"])
        try await check("settings", ["settings"])
        try await check("generate", ["generate", "--count", "3"])
        try await check("delete", ["delete", "tacos.example", "alice"])
        try await check("rekey", ["rekey", "--new-key-file", home.appendingPathComponent("new.key").path])
        try await check("explain", ["explain"])
        try await check("explain", ["explain", "AD-4.8"])

        // Errors go to stderr as one object.
        let failed = try await CLI.run(["show", "tacos.example", "nobody", "--format", "json", "--key-file",
                                  home.appendingPathComponent("new.key").path], home: home)
        let line = try #require(failed.stderr.split(separator: "\n").last)
        #expect(failed.status == 44)
        #expect(try validator.validate(try JSONSerialization.jsonObject(with: Data(line.utf8)), against: "error") == [])
        checked.insert("error")

        #expect(checked.count == 16)
    }

    @Test("every command has a schema")
    func everyCommandHasASchema() async throws {
        let result = try await CLI.run(["--experimental-dump-help"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any])
        let commands = ((root["command"] as? [String: Any])?["subcommands"] as? [[String: Any]] ?? [])
            .compactMap { $0["commandName"] as? String }.filter { $0 != "help" }
        #expect(commands.count >= 15)
        for command in commands {
            let path = CLI.repositoryRoot.appendingPathComponent("Schemas/\(command).schema.json").path
            #expect(FileManager.default.fileExists(atPath: path), "no Schemas/\(command).schema.json")
        }
    }
}
