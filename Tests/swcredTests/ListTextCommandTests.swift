import Foundation
import Testing

/// `swcred list`'s text, printed straight from the payload's bytes (issue 22), against the text
/// the item-based listing printed: the same bytes for every site filter.
@Suite("Store CLI: list text")
struct ListTextCommandTests {
    /// The text the item-based `list` built from the items (`server[:port] TAB account`, or
    /// `(passwords not saved)`), here from `list --format json`'s items.
    static func itemBasedText(_ items: [[String: Any]]) -> [UInt8] {
        var text = ""
        for item in items {
            text += item["server"] as? String ?? "?"
            if let port = item["port"] as? Int, port != 0 { text += ":\(port)" }
            text += item["negative"] as? Bool == true ? "\t(passwords not saved)\n" : "\t\(item["account"] as? String ?? "?")\n"
        }
        return Array(text.utf8)
    }

    @Test("list prints byte for byte what the item-based listing printed: ports, negative entries, non-ASCII accounts, filters, order")
    func textMatchesItemBasedListing() async throws {
        let sandbox = try StoreSandbox()
        let rows: [(String, String, Int?)] = [
            ("a.example", "alice", nil), ("a.example", "bob", 8443), ("xn--tda.example", "ñandú ✓ 日本", nil),
            ("b.example", "", 443), ("a.example", "zed", 1), ("c.example", "ü", 65535), ("a.example", "x", 10000),
            ("a.example", "tab\there", nil),
        ]
        var lines = ""
        for (server, account, port) in rows {
            let object: [String: Any] = ["server": server, "account": account, "password": "pw", "port": port.map { $0 as Any } ?? NSNull()]
            lines += String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self) + "\n"
        }
        let file = sandbox.path("items.jsonl")
        #expect(FileManager.default.createFile(atPath: file, contents: Data(lines.utf8)))
        let imported = try await sandbox.run(["import", "--from", "jsonl", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        for site in ["d.example:99", "e.example", "a.example"] {
            #expect(try await sandbox.run(["add", site, "--never-save"]).status == 0)
        }

        let all = try await sandbox.run(["list"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdoutBytes == Self.itemBasedText(try await sandbox.listItems()))
        #expect(all.stdout.hasPrefix("a.example\talice\na.example:8443\tbob\nxn--tda.example\tñandú ✓ 日本\nb.example:443\t\n"))
        #expect(all.stdout.hasSuffix("a.example\ttab\there\nd.example:99\t(passwords not saved)\ne.example\t(passwords not saved)\na.example\t(passwords not saved)\n"))
        for domain in ["a.example", "a.example:8443", "a.example:1", "a.example:10000", "c.example:65535", "d.example", "d.example:99", "d.example:98", "xn--tda.example", "none.example"] {
            let listed = try await sandbox.run(["list", domain])
            #expect(listed.status == 0, "\(domain): \(listed.stderr)")
            #expect(listed.stdoutBytes == Self.itemBasedText(try await sandbox.listItems([domain])), "\(domain)")
        }
        #expect(try await sandbox.run(["list", "none.example"]).stdoutBytes.isEmpty)
    }
}
