import Foundation
import SWCredAssociation
import SWCredCore
import Testing

/// The Public Suffix List matcher (asset-links.md §2.1: registrable origin labels, ROR-L1), on a
/// small inline list and, when installed, on Debian's `publicsuffix` data judged by libpsl's `psl`.
@Suite("Public Suffix List")
struct PublicSuffixListTests {
    static let sample = """
        // ===BEGIN ICANN DOMAINS===
        com
        uk
        co.uk
        *.ck
        !www.ck
        jp
        *.kawasaki.jp
        !city.kawasaki.jp
        公司.cn
        cn
        // ===END ICANN DOMAINS===
        // ===BEGIN PRIVATE DOMAINS===
        github.io
        // ===END PRIVATE DOMAINS===
        """

    static var debianList: String? {
        let path = PublicSuffixList.defaultPath
        return FileManager.default.isReadableFile(atPath: path) ? path : nil
    }

    static var pslTool: String? {
        ["/usr/bin/psl", "/usr/local/bin/psl"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test("ROR-L1: rules, wildcards, exceptions and both sections give the registrable domain")
    func sampleRules() throws {
        let list = try PublicSuffixList(parsing: Array(Self.sample.utf8))
        #expect(list.icannRules == 10)
        #expect(list.privateRules == 1)
        let cases: [(String, String?)] = [
            ("www.example.co.uk", "example.co.uk"), ("co.uk", nil), ("example.com", "example.com"),
            ("com", nil), ("foo.ck", nil), ("bar.foo.ck", "bar.foo.ck"), ("www.ck", "www.ck"),
            ("a.www.ck", "www.ck"), ("city.kawasaki.jp", "city.kawasaki.jp"), ("a.b.kawasaki.jp", "a.b.kawasaki.jp"),
            ("github.io", nil), ("me.github.io", "me.github.io"), ("x.me.github.io", "me.github.io"),
            ("shop.xn--55qx5d.cn", "shop.xn--55qx5d.cn"), ("xn--55qx5d.cn", nil),
            ("example.unknowntld", "example.unknowntld"), ("unknowntld", nil), ("", nil),
        ]
        for (host, expected) in cases {
            #expect(list.registrableDomain(of: host) == expected, "\(host)")
        }
        #expect(list.registrableLabel(of: "www.example.co.uk") == "example")
    }

    @Test("ROR-L1: a list that is not a list is a named error")
    func malformedLists() {
        #expect(throws: SWCredError.self) { try PublicSuffixList(parsing: []) }
        #expect(throws: SWCredError.self) { try PublicSuffixList(parsing: Array("// only a comment\n".utf8)) }
        #expect(throws: SWCredError.self) { try PublicSuffixList(parsing: [0xFF, 0xFE, 0x0A]) }
        #expect(throws: SWCredError.self) { try PublicSuffixList(parsing: Array("a..b\n".utf8)) }
        #expect(throws: SWCredError.self) {
            try PublicSuffixList(parsing: [UInt8](repeating: 0x61, count: PublicSuffixList.maximumBytes + 1))
        }
    }

    @Test("ROR-L1: a missing list is fileNotFound, naming the package and SWCRED_PUBLIC_SUFFIX_LIST")
    func missingList() {
        do {
            _ = try PublicSuffixList.load(path: "/nonexistent/public_suffix_list.dat")
            Issue.record("no error")
        } catch {
            #expect(error.code == .fileNotFound)
            #expect(error.message.contains("SWCRED_PUBLIC_SUFFIX_LIST"))
        }
        #expect(PublicSuffixList.path(environment: ["SWCRED_PUBLIC_SUFFIX_LIST": "/x"]) == "/x")
        #expect(PublicSuffixList.path(environment: [:]) == PublicSuffixList.defaultPath)
    }

    /// Hosts for the comparison with libpsl: every ASCII rule of the list, with a label or two
    /// put in front, and a few fixed hosts.
    static func comparisonHosts(_ path: String) throws -> [String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var hosts = ["example.com", "www.example.co.uk", "a.b.c.kawasaki.jp", "foo.ck", "www.ck", "x.github.io"]
        for line in text.split(whereSeparator: \.isNewline) {
            guard let word = line.split(separator: " ").first, !word.hasPrefix("//") else { continue }
            var rule = String(word)
            if rule.hasPrefix("!") { rule.removeFirst() }
            if rule.hasPrefix("*.") { rule = "w" + rule.dropFirst(1) }
            guard rule.unicodeScalars.allSatisfy(\.isASCII) else { continue }
            hosts.append(rule)
            hosts.append("shop." + rule)
            hosts.append("a.shop." + rule)
        }
        return hosts
    }

    @Test(
        "ROR-L1: registrable domains agree with libpsl's psl on Debian's list",
        .enabled(if: debianList != nil && pslTool != nil))
    func agreesWithLibpsl() throws {
        let path = try #require(Self.debianList)
        let tool = try #require(Self.pslTool)
        let list = try PublicSuffixList.load(path: path)
        let hosts = try Self.comparisonHosts(path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--print-reg-domain", "--load-psl-file", path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let writer = Thread {
            input.fileHandleForWriting.write(Data(hosts.joined(separator: "\n").utf8 + [0x0A]))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == hosts.count)
        var compared = 0
        for line in lines {
            guard let separator = line.range(of: ": ") else { continue }
            let host = String(line[..<separator.lowerBound])
            let theirs = String(line[separator.upperBound...])
            let ours = list.registrableDomain(of: host) ?? "(null)"
            #expect(ours == theirs, "\(host)")
            compared += 1
        }
        #expect(compared > 20_000)
    }
}
