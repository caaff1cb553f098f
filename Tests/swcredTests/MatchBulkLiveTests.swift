import Foundation
import SWCredTLSTestServer
import Testing

/// The entitlement path of the bulk `match` (`spec/cli.md`: "With `--entitlements` and a source
/// (`--aasa-dir`, `--direct`, `--cdn`), each host's file is obtained once and reused"), as the real
/// binary against a real HTTPS server on 127.0.0.1 whose root is made at test time.
///
/// The server stands in for Apple's CDN (hidden `--cdn-base-url`): plain entries go through the
/// CDN route (AD-4.1), so URL hosts keep the default port (a URL with a port never opens an app,
/// AD-7.1) while every file still comes from the local server, one path per host.
@Suite("swcred match --urls --entitlements with a source")
struct MatchBulkLiveTests {
    static let appID = "ABCDE12345.com.example.shop"

    static let shopFile = """
        {"applinks":{"details":[{"appIDs":["\(appID)"],"components":[
        {"/":"/cart/*","exclude":true},{"/":"/products/*"}]}]}}
        """
    static let blogFile = """
        {"applinks":{"details":[{"appIDs":["\(appID)"],"components":[{"/":"/posts/*","#":"top"},{"/":"/posts/*"}]}]}}
        """
    /// A valid file one byte over the 131 072-byte cap (AD-4.6).
    static var bigFile: String {
        let head = #"{"applinks":{"details":[]},"pad":""#
        return head + String(repeating: "x", count: 131_073 - head.utf8.count - 2) + #""}"#
    }

    /// Lines of the URL list; `moved.test` redirects, `big.test` is too large, `other.test` has no entry.
    static let urls = [
        "https://shop.test/products/1",
        "https://shop.test/cart/9",
        "https://blog.test/posts/hello#top",
        "https://www.blog.test/posts/x",
        "https://moved.test/products/1",
        "https://shop.test/about",
        "https://big.test/posts/1",
        "https://blog.test/about",
        "https://moved.test/again",
        "https://other.test/x",
        "https://news.blog.test/posts/y",
    ]

    static let entries = [
        "applinks:shop.test", "applinks:blog.test", "applinks:*.blog.test", "applinks:moved.test",
        "applinks:big.test",
    ]

    /// Writes the entitlements, the URL list and an `--aasa-dir` with the shop's and the blog's files.
    static func workspace(_ directory: URL) throws -> (app: String, list: String, sites: String) {
        let object: [String: Any] = [
            "application-identifier": appID, "com.apple.developer.associated-domains": entries,
        ]
        let app = directory.appendingPathComponent("app.json")
        try JSONSerialization.data(withJSONObject: object).write(to: app)
        let list = directory.appendingPathComponent("urls.txt")
        try Data((["# two good hosts, one redirect, one oversized file"] + urls).joined(separator: "\n").utf8)
            .write(to: list)
        let sites = directory.appendingPathComponent("sites")
        for (host, text) in [("shop.test", shopFile), ("blog.test", blogFile)] {
            let folder = sites.appendingPathComponent(host).appendingPathComponent(".well-known")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: folder.appendingPathComponent("apple-app-site-association"))
        }
        return (app.path, list.path, sites.path)
    }

    /// The per-URL objects of a JSON-lines run, and its summary.
    static func parse(_ result: CLI.Result) throws -> (lines: [[String: Any]], summary: [String: Any]) {
        let objects = try result.stdout.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw CLI.CLIError("not a JSON object: \(line)")
            }
            return object
        }
        let summary = try #require(objects.last?["summary"] as? [String: Any])
        return (objects.filter { $0["url"] != nil }, summary)
    }

    /// What must agree between two runs for one URL: outcome, app, entry, deciding rule, error code.
    static func essence(_ object: [String: Any]) -> String {
        let rule = object["rule"] as? [String: Any]
        let error = object["error"] as? [String: Any]
        return [
            object["url"] as? String ?? "?", object["outcome"] as? String ?? "?", object["appID"] as? String ?? "-",
            object["entitlement"] as? String ?? "-", (rule?["detail"] as? Int).map(String.init) ?? "-",
            (rule?["component"] as? Int).map(String.init) ?? "-", error?["code"] as? String ?? "-",
        ].joined(separator: " ")
    }

    @Test(
        "cli match bulk --cdn: one retrieval per aasaHost, outcomes as --aasa-dir and the single form; AD-4.4 redirect and AD-4.6 oversized file give per-URL fetchRefused and the run goes on"
    )
    func liveSourceFetchesEachFileOnce() async throws {
        let routes: [String: TestRoute] = [
            "/a/v1/shop.test": .json(Self.shopFile),
            "/a/v1/blog.test": .json(Self.blogFile),
            "/a/v1/moved.test": .redirect(301, to: "https://www.moved.test/.well-known/apple-app-site-association"),
            "/a/v1/big.test": .bytes(Array(Self.bigFile.utf8)),
        ]
        try await FetchCommandTests.withSite(routes: routes, hostnames: ["cdn.test"]) { server, _, reach, ca in
            let directory = try CLI.temporaryDirectory("swcred-match-live")
            defer { try? FileManager.default.removeItem(at: directory) }
            let (app, list, sites) = try Self.workspace(directory)
            let live = try await FetchCommandTests.run(
                [
                    "match", "--urls", list, "--entitlements", app, "--cdn", "--cdn-base-url",
                    "https://cdn.test:\(server.port)/a/v1/", "--ca-file", ca,
                ] + reach + ["--format", "json"])
            // The run finished: exit 0 although two hosts' files could not be obtained (cli.md bulk exit).
            #expect(live.status == 0, "\(live.stderr)")
            let (lines, summary) = try Self.parse(live)
            #expect(lines.map { $0["url"] as? String } == Self.urls)
            #expect(lines.map { $0["line"] as? Int } == Array(2...(Self.urls.count + 1)))

            // Exactly one request per file: shop, blog (for blog.test, www. and news. alike), moved, big.
            let asked = server.requests.map(\.uri)
            #expect(asked.sorted() == ["/a/v1/big.test", "/a/v1/blog.test", "/a/v1/moved.test", "/a/v1/shop.test"])

            let byURL = Dictionary(uniqueKeysWithValues: lines.map { ($0["url"] as? String ?? "", $0) })
            func outcome(_ url: String) -> String? { byURL[url]?["outcome"] as? String }
            #expect(outcome("https://shop.test/products/1") == "match")
            #expect(outcome("https://shop.test/cart/9") == "exclude")
            #expect(outcome("https://blog.test/posts/hello#top") == "match")
            #expect((byURL["https://blog.test/posts/hello#top"]?["rule"] as? [String: Any])?["component"] as? Int == 0)
            #expect(outcome("https://www.blog.test/posts/x") == "match")
            #expect(byURL["https://www.blog.test/posts/x"]?["entitlement"] as? String == "applinks:*.blog.test")
            #expect(outcome("https://shop.test/about") == "no_match")
            #expect(byURL["https://shop.test/about"]?["error"] == nil)
            #expect(byURL["https://other.test/x"]?["entitlement"] is NSNull)

            // The failed hosts: no_match with an error naming the rule, each URL of them.
            for url in ["https://moved.test/products/1", "https://moved.test/again", "https://big.test/posts/1"] {
                let object = try #require(byURL[url])
                #expect(object["outcome"] as? String == "no_match")
                let error = try #require(object["error"] as? [String: Any], "\(url)")
                #expect(error["code"] as? String == "fetchRefused")
                let message = error["message"] as? String ?? ""
                #expect(message.contains(url.contains("moved") ? "AD-4.4" : "AD-4.6"), "\(message)")
            }
            #expect(summary["unretrieved"] as? Int == 3)
            #expect(summary["urls"] as? Int == Self.urls.count)
            #expect(summary["match"] as? Int == 4)
            #expect(summary["exclude"] as? Int == 1)
            #expect(summary["no_match"] as? Int == 6)
            #expect(live.stderr.contains("moved.test"))

            // The same list through --aasa-dir (where moved.test and big.test have no folder): the
            // same outcome, entry and rule for every URL, and the same error code for the missing ones.
            let offline = try await CLI.run([
                "match", "--urls", list, "--entitlements", app, "--aasa-dir", sites, "--format", "json",
            ])
            #expect(offline.status == 0, "\(offline.stderr)")
            let (offlineLines, offlineSummary) = try Self.parse(offline)
            #expect(offlineLines.map(Self.essence) == lines.map(Self.essence))
            #expect(offlineSummary["unretrieved"] as? Int == 3)

            // And as the single form decides each URL of the good hosts.
            for url in Self.urls where !url.contains("moved.test") && !url.contains("big.test") {
                let single = try await CLI.run([
                    "match", url, "--entitlements", app, "--aasa-dir", sites, "--format", "json",
                ]).json()
                var expected = single
                expected["error"] = nil
                #expect(Self.essence(expected) == Self.essence(byURL[url] ?? [:]))
            }

            // A CI gate: not every URL opens the app.
            let gate = try await FetchCommandTests.run(
                [
                    "match", "--urls", list, "--entitlements", app, "--cdn", "--cdn-base-url",
                    "https://cdn.test:\(server.port)/a/v1/", "--ca-file", ca, "--expect", "match",
                ] + reach)
            #expect(gate.status == 1)
            #expect(gate.stdout.split(separator: "\n").count == Self.urls.count)

            // The single form takes the same live source.
            let single = try await FetchCommandTests.run(
                [
                    "match", "https://www.blog.test/posts/x", "--entitlements", app, "--cdn", "--cdn-base-url",
                    "https://cdn.test:\(server.port)/a/v1/", "--ca-file", ca,
                ] + reach + ["--format", "json"])
            #expect(single.status == 0, "\(single.stderr)")
            #expect(Self.essence(try single.json()) == Self.essence(byURL["https://www.blog.test/posts/x"] ?? [:]))
            let moved = try await FetchCommandTests.run(
                [
                    "match", "https://moved.test/products/1", "--entitlements", app, "--cdn", "--cdn-base-url",
                    "https://cdn.test:\(server.port)/a/v1/", "--ca-file", ca,
                ] + reach + ["--format", "json"])
            #expect(moved.status == 1)
            let diagnostics = try moved.json()["diagnostics"] as? [[String: Any]] ?? []
            #expect(diagnostics.contains { ($0["message"] as? String ?? "").contains("AD-4.4") }, "\(moved.stdout)")
        }
    }

    @Test("cli match bulk --direct: a host that cannot be reached gives per-URL fetchFailed, one attempt per host")
    func directSourceNetworkFailure() async throws {
        let directory = try CLI.temporaryDirectory("swcred-match-direct")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (app, list, _) = try Self.workspace(directory)
        // --resolve names shop.test on another port than the fetch's 443: refused before any
        // connection (AD-4.8, NSURLErrorDomain -1004), so nothing leaves the machine.
        let result = try await FetchCommandTests.run([
            "match", "--urls", list, "--entitlements", app, "--direct", "--resolve", "shop.test:1:127.0.0.1",
            "--resolve", "blog.test:1:127.0.0.1", "--resolve", "moved.test:1:127.0.0.1", "--resolve",
            "big.test:1:127.0.0.1", "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let (lines, summary) = try Self.parse(result)
        for object in lines {
            let url = object["url"] as? String ?? ""
            #expect(object["outcome"] as? String == "no_match", "\(url)")
            if url.contains("other.test") {
                #expect(object["error"] == nil)
            } else {
                #expect((object["error"] as? [String: Any])?["code"] as? String == "fetchFailed", "\(url)")
            }
        }
        #expect(summary["unretrieved"] as? Int == Self.urls.count - 1)
        // One warning per file, not per URL.
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("-1004") }
        #expect(warnings.count == 4, "\(result.stderr)")
    }

    @Test("AD-2.6/AD-8.5: --aasa-dir bulk: mode gating chooses the entry as the single form does")
    func modeGatingAsSingleForm() async throws {
        let directory = try CLI.temporaryDirectory("swcred-match-modes")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, _, sites) = try Self.workspace(directory)
        let dev = URL(fileURLWithPath: sites).appendingPathComponent("dev.shop.test/.well-known")
        try FileManager.default.createDirectory(at: dev, withIntermediateDirectories: true)
        try Data(Self.shopFile.utf8).write(to: dev.appendingPathComponent("apple-app-site-association"))
        let object: [String: Any] = [
            "application-identifier": Self.appID, "get-task-allow": true,
            "com.apple.developer.associated-domains": [
                "applinks:dev.shop.test?mode=developer", "applinks:*.blog.test",
            ],
        ]
        let app = directory.appendingPathComponent("dev.json")
        try JSONSerialization.data(withJSONObject: object).write(to: app)
        let urls = [
            "https://dev.shop.test/products/2", "https://dev.shop.test/cart/1", "https://www.blog.test/posts/1",
        ]
        for device in [[], ["--developer-mode"]] {
            let bulk = try await CLI.run(
                ["match", "--urls", "-", "--entitlements", app.path, "--aasa-dir", sites, "--format", "json"] + device,
                stdin: urls.joined(separator: "\n"))
            #expect(bulk.status == 0, "\(bulk.stderr)")
            let (lines, _) = try Self.parse(bulk)
            #expect(lines.count == urls.count)
            for (url, object) in zip(urls, lines) {
                let single = try await CLI.run(
                    ["match", url, "--entitlements", app.path, "--aasa-dir", sites, "--format", "json"] + device
                ).json()
                #expect(Self.essence(single) == Self.essence(object), "\(device)")
            }
            let first = lines.first?["entitlement"] as? String
            #expect(first == (device.isEmpty ? nil : "applinks:dev.shop.test?mode=developer"))
            #expect(lines.first?["outcome"] as? String == (device.isEmpty ? "no_match" : "match"))
        }
    }

    @Test("usage: --direct/--cdn need --entitlements; --cdn-base-url goes with --cdn; one source")
    func usage() async throws {
        #expect(try await CLI.run(["match", "--urls", "-", "--direct", "--app-id", Self.appID]).status == 64)
        #expect(try await CLI.run(["match", "--urls", "-", "--cdn", "--app-id", Self.appID]).status == 64)
        #expect(
            try await CLI.run(["match", "--urls", "-", "--aasa-dir", "/nonexistent", "--cdn-base-url", "https://x.test/"])
                .status == 64)
        #expect(try await CLI.run(["match", "--urls", "-", "--aasa", "/nonexistent", "--aasa-dir", "/x"]).status == 64)
    }
}
