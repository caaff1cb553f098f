import Foundation
import Testing

/// The bulk form of `swcred match` (`--urls`, `--sitemap`), run as the real binary.
@Suite("swcred match --urls / --sitemap")
struct MatchBulkTests {
    static let appID = "ABCDE12345.com.example.tacoshop"
    static var sites: String { CLI.fixtures.appendingPathComponent("sites").path }
    static var sitemaps: URL { CLI.fixtures.appendingPathComponent("sitemaps") }

    static func lines(_ result: CLI.Result) throws -> [[String: Any]] {
        try result.stdout.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw CLI.CLIError("not a JSON object: \(line)")
            }
            return object
        }
    }

    @Test("--sitemap over a sitemap index: every <loc> decided exactly as the single form decides it, then a summary")
    func sitemapIndexMatchesSingleForm() async throws {
        let result = try await CLI.run([
            "match", "--sitemap", Self.sitemaps.appendingPathComponent("tacos-index.xml").path, "--aasa-dir", Self.sites,
            "--app-id", Self.appID, "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try Self.lines(result)
        let perURL = objects.filter { $0["url"] != nil }
        #expect(perURL.count == 12)
        for object in perURL {
            let url = try #require(object["url"] as? String)
            #expect(object["schema"] as? String == "swcred/1")
            #expect(object["line"] is Int)
            let single = try await CLI.run([
                "match", url, "--aasa-dir", Self.sites, "--app-id", Self.appID, "--format", "json",
            ]).json()
            #expect(object["outcome"] as? String == single["outcome"] as? String, "\(url)")
            #expect(object["appID"] as? String == single["appID"] as? String, "\(url)")
            let rule = object["rule"] as? [String: Any]
            let singleRule = single["rule"] as? [String: Any]
            #expect(rule?["detail"] as? Int == singleRule?["detail"] as? Int, "\(url)")
            #expect(rule?["component"] as? Int == singleRule?["component"] as? Int, "\(url)")
        }
        // The CDATA <loc> keeps its '&'; the entity one is decoded.
        #expect(perURL.contains { ($0["url"] as? String)?.hasSuffix("utm_source=mail&utm_medium=email") == true })
        #expect(perURL.contains { ($0["url"] as? String)?.hasSuffix("cheese=oaxaca&spicy=1") == true })
        let summary = try #require(objects.last?["summary"] as? [String: Any])
        #expect(summary["urls"] as? Int == 12)
        let match = summary["match"] as? Int ?? -1
        let exclude = summary["exclude"] as? Int ?? -1
        let noMatch = summary["no_match"] as? Int ?? -1
        #expect(match + exclude + noMatch == 12)
        #expect(perURL.filter { $0["outcome"] as? String == "match" }.count == match)
        #expect(exclude == 2)  // coupon/1234 and account/settings
        #expect(summary["invalid"] as? Int == 0)
        let byApp = try #require(summary["byApp"] as? [String: [String: Int]])
        #expect(byApp[Self.appID]?["match"] == match)
        // Every rule of the shop's file was reached by some URL of the fixture except none: check the list's shape.
        let unused = try #require(summary["unusedRules"] as? [[String: Any]])
        for rule in unused {
            #expect(rule["aasaHost"] as? String == "tacos.example")
            #expect(rule["pattern"] is [String: Any])
        }
    }

    @Test("--urls: a bad line is reported with its line number, the run goes on, exit 65")
    func invalidLinesAreReported() async throws {
        let list = """
            # comment
            https://tacos.example/coupon/2345

            not a url
            ftp://tacos.example/x
            https://tacos.example/coupon/1234
            """
        let result = try await CLI.run(
            ["match", "--urls", "-", "--aasa-dir", Self.sites, "--app-id", Self.appID, "--format", "json"],
            stdin: list)
        #expect(result.status == 65)
        let objects = try Self.lines(result)
        #expect(objects.count == 5)
        #expect(objects[0]["line"] as? Int == 2)
        #expect(objects[0]["outcome"] as? String == "match")
        #expect(objects[1]["line"] as? Int == 4)
        #expect((objects[1]["error"] as? [String: Any])?["code"] as? String == "invalidURL")
        #expect(objects[2]["line"] as? Int == 5)
        #expect(objects[3]["line"] as? Int == 6)
        #expect(objects[3]["outcome"] as? String == "exclude")
        let summary = try #require(objects[4]["summary"] as? [String: Any])
        #expect(summary["invalid"] as? Int == 2)
        #expect(summary["urls"] as? Int == 4)
    }

    @Test("--expect: exit 0 only when every URL has the outcome; text lines are outcome, app, URL")
    func expectGate() async throws {
        let urls = Self.sitemaps.appendingPathComponent("tacos-urls.txt").path
        let pass = try await CLI.run([
            "match", "--urls", urls, "--aasa-dir", Self.sites, "--app-id", Self.appID, "--expect", "match",
        ])
        #expect(pass.status == 0, "\(pass.stderr)")
        let first = pass.stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first == "match\t\(Self.appID)\thttps://tacos.example/taco/al-pastor?cheese=extra")
        #expect(pass.stderr.contains("4 URLs: 4 match"))
        let fail = try await CLI.run([
            "match", "--urls", urls, "--aasa-dir", Self.sites, "--app-id", Self.appID, "--expect", "no_match",
        ])
        #expect(fail.status == 1)
    }

    @Test("--urls: a 10 MB line is an invalid line, not a hang; the next line is still decided")
    func hugeLine() async throws {
        let folder = try CLI.temporaryDirectory("swcred-bulk")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("urls.txt")
        var data = Data("https://tacos.example/".utf8)
        data.append(Data(repeating: UInt8(ascii: "a"), count: 10 << 20))
        data.append(Data("\nhttps://tacos.example/coupon/2345\n".utf8))
        try data.write(to: path)
        let result = try await CLI.run([
            "match", "--urls", path.path, "--aasa-dir", Self.sites, "--app-id", Self.appID, "--format", "json",
        ])
        #expect(result.status == 65)
        let objects = try Self.lines(result)
        #expect((objects.first?["error"] as? [String: Any])?["code"] as? String == "malformedInput")
        #expect(objects.first?["line"] as? Int == 1)
        #expect(objects.dropFirst().first?["outcome"] as? String == "match")
    }

    @Test(
        "--sitemap: a 10 MB <loc>, a 10 MB line of text, a binary file and an XML bomb are malformedSitemap (65)",
        arguments: ["long-loc", "long-line", "binary", "bomb", "not-sitemap", "unterminated"])
    func hostileSitemaps(kind: String) async throws {
        let folder = try CLI.temporaryDirectory("swcred-sitemap")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("sitemap.xml")
        var data = Data()
        switch kind {
        case "long-loc":
            data.append(Data("<urlset><url><loc>https://tacos.example/".utf8))
            data.append(Data(repeating: UInt8(ascii: "a"), count: 10 << 20))
            data.append(Data("</loc></url></urlset>".utf8))
        case "long-line":
            data.append(Data(repeating: UInt8(ascii: "x"), count: 10 << 20))
        case "binary":
            var generator = SystemRandomNumberGenerator()
            data = Data((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) })
            data[0] = UInt8(ascii: "<")
            data[1] = 0
        case "bomb":
            var text = #"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">"#
            for level in 1...9 {
                text += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">"
            }
            text += "]><urlset><url><loc>https://tacos.example/&lol9;</loc></url></urlset>"
            data = Data(text.utf8)
        case "not-sitemap":
            data = Data("<html><body>hello</body></html>".utf8)
        default:
            data = Data("<urlset><url><loc>https://tacos.example/".utf8)
        }
        try data.write(to: path)
        let result = try await CLI.run([
            "match", "--sitemap", path.path, "--aasa-dir", Self.sites, "--app-id", Self.appID, "--format", "json",
        ])
        #expect(result.status == 65, "\(kind): \(result.stderr)")
        #expect(try result.errorJSON()["code"] as? String == "malformedSitemap")
    }

    @Test("usage: exactly one of URL, --urls and --sitemap; --expect only in the bulk form")
    func usage() async throws {
        #expect(try await CLI.run(["match", "--aasa-dir", Self.sites]).status == 64)
        #expect(
            try await CLI.run(["match", "https://tacos.example/", "--urls", "-", "--aasa-dir", Self.sites]).status == 64)
        #expect(
            try await CLI.run(["match", "https://tacos.example/", "--expect", "match", "--aasa-dir", Self.sites]).status
                == 64)
    }
}
