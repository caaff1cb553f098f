import Foundation
import SWCredAssociation
import Testing

/// Statement lists from an offline folder of web roots (`--aasa-dir`): the site's list, its
/// includes on other hosts and ports, and what the folder never gives.
@Suite("Asset links from a folder")
struct AssetLinksDirectorySourceTests {
    static func write(_ text: String, _ relative: String, in root: URL) throws {
        let file = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    @Test("DAL-I2: the site's list and an include on another host and port are read from DIR/<host>[:port]/…")
    func includesFromFolder() async throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.write(
            #"[{"include": "https://cdn.example:8443/lists/app.json"}]"#, "example.com/.well-known/assetlinks.json",
            in: root)
        try Self.write("[\(AssetLinksTests.statement())]", "cdn.example:8443/lists/app.json", in: root)
        let source = AssetLinksDirectorySource(root: root.path)
        let verdicts = await AssetLinksResolver.verdicts(
            source.statementList(for: AssetLinksTests.site), site: AssetLinksTests.site, relation: .handleAllURLs,
            app: try #require(AssetLinksTests.app), includes: source)
        #expect(verdicts.allSatisfy { $0.linked })
        #expect(verdicts.first?.reason.contains("https://cdn.example:8443/lists/app.json") == true)
    }

    @Test("DAL-I2, DAL-F3: a missing file is a 404, a path out of the folder is never read, a large file is refused")
    func refusals() async throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        // The source's folder is DIR = root/sites; the secret is beside it, one '..' above a host folder.
        try Self.write("[\(AssetLinksTests.statement())]", "sites/secret.json", in: root)
        try Self.write("[\(AssetLinksTests.statement())]", "sites/example.com/big.json", in: root)
        let source = AssetLinksDirectorySource(root: root.appendingPathComponent("sites").path)
        guard case .failed(.fetchError, let message) = source.statementList(for: AssetLinksTests.site) else {
            Issue.record("a missing list was read")
            return
        }
        #expect(message.contains("404"))
        let escape = try AssetLinksURL.parse("https://example.com/../secret.json").get()
        guard case .failed(.fetchError, _) = await source.statementList(at: escape) else {
            Issue.record("a path with '..' was read")
            return
        }
        let big = try AssetLinksURL.parse("https://example.com/big.json").get()
        #expect(await source.statementList(at: big) != .failed(.tooLarge, ""))
        let small = AssetLinksDirectorySource(root: root.appendingPathComponent("sites").path, maximumBytes: 64)
        guard case .failed(.tooLarge, _) = await small.statementList(at: big) else {
            Issue.record("a file over the limit was read")
            return
        }
    }

    @Test("DAL-F1: a .redirect file beside the list answers as a redirect, never followed, even with the list there")
    func redirectFile() async throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.write("[\(AssetLinksTests.statement())]", "example.com/.well-known/assetlinks.json", in: root)
        try Self.write(
            "301 https://www.example.com/.well-known/assetlinks.json\n", "example.com/.well-known/assetlinks.json.redirect",
            in: root)
        let source = AssetLinksDirectorySource(root: root.path)
        guard case .failed(.redirect, let message) = source.statementList(for: AssetLinksTests.site) else {
            Issue.record("a redirected list was read")
            return
        }
        #expect(message.contains("answered 301 to https://www.example.com/.well-known/assetlinks.json"))
        // A .redirect file that is not `3xx LOCATION` is ignored.
        try Self.write("200 OK\n", "example.com/.well-known/assetlinks.json.redirect", in: root)
        guard case .body = source.statementList(for: AssetLinksTests.site) else {
            Issue.record("a malformed .redirect file was taken for a redirect")
            return
        }
    }
}
