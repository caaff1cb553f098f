import Foundation
import Testing

/// `swcred explain`: the rule book from the command line, and the ids the other commands print
/// looked up through it.
@Suite("swcred explain")
struct ExplainCommandTests {
    static let broken = CLI.fixtures.appendingPathComponent(
        "sites/broken.example/.well-known/apple-app-site-association").path

    @Test("without an id it lists lint ids, rule ids and error codes, each with a title")
    func listsEverything() async throws {
        let result = try await CLI.run(["explain"])
        #expect(result.status == 0, "\(result.stderr)")
        for id in ["SWC001", "SWC031", "SWC110", "AD-4.8", "AD-4.4", "itemNotFound", "siteNotApproved", "wrongKey"] {
            #expect(result.stdout.contains("  \(id) "), "\(id) is not listed")
        }
        let json = try await CLI.run(["explain", "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdoutBytes)) as? [String: Any])
        let rules = try #require(document["rules"] as? [[String: Any]])
        #expect(rules.count > 100)
        #expect(Set(rules.compactMap { $0["kind"] as? String }) == ["lint", "rule", "error"])
    }

    @Test("one id prints what Apple does, why, the fix and an example", arguments: ["SWC031", "AD-4.8", "itemNotFound"])
    func explainsOne(_ id: String) async throws {
        let result = try await CLI.run(["explain", id])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\(id): "))
        for heading in ["What Apple does", "Why", "How to fix it", "Example"] {
            #expect(result.stdout.contains("\n\(heading)\n"), "\(id) lacks \(heading)")
        }
        let lower = try await CLI.run(["explain", id.lowercased(), "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(lower.stdoutBytes)) as? [String: Any])
        let rules = try #require(document["rules"] as? [[String: Any]])
        #expect(rules.count == 1)
        #expect(rules.first?["id"] as? String == id)
    }

    @Test("an unknown id is a usage error (64) that points to the list")
    func unknownID() async throws {
        let result = try await CLI.run(["explain", "SWC999"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("swcred explain"))
        #expect(result.stdout.isEmpty)
    }

    @Test("every id lint prints, and every rule a fetch report cites, can be explained")
    func lintAndReportIDsResolve() async throws {
        let lint = try await CLI.run(["lint", Self.broken, "--format", "json"])
        #expect(lint.status == 65)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(lint.stdoutBytes)) as? [String: Any])
        let ids = Set((document["findings"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
        #expect(ids.count >= 3)
        for id in ids.sorted() {
            #expect(try await CLI.run(["explain", id]).status == 0, "lint printed \(id), which explain does not know")
        }
        let text = try await CLI.run(["lint", Self.broken])
        #expect(text.stdout.contains("(swcred explain SWC"))
    }

    @Test("the code in brackets at the end of an error message can be explained")
    func errorCodeResolves() async throws {
        let home = try CLI.temporaryDirectory("swcred-explain")
        defer { try? FileManager.default.removeItem(at: home) }
        _ = try await CLI.run(["init"], home: home)
        let failed = try await CLI.run(["show", "tacos.example", "nobody"], home: home)
        #expect(failed.status == 44)
        let line = failed.stderr.split(separator: "\n").last.map(String.init) ?? ""
        let code = try #require(line.split(separator: "[").last?.split(separator: "]").first.map(String.init))
        #expect(code == "itemNotFound")
        #expect(try await CLI.run(["explain", code]).status == 0)
    }
}
