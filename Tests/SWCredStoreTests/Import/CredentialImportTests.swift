import Foundation
import SWCredCore
import SWCredSodium
import Testing
@testable import SWCredStore

/// Reading password exports, applying them to store contents, and writing exports.
@Suite("Password import and export (formats, conflicts, limits)")
struct CredentialImportTests {
    static let exports = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/exports")

    static func parse(_ text: String, format: CredentialFileFormat? = nil) throws -> CredentialFile {
        try CredentialFile.parse(copying: Array(text.utf8), format: format)
    }

    static func failure(_ text: String, format: CredentialFileFormat? = nil) -> SWCredError? {
        do {
            _ = try parse(text, format: format)
            return nil
        } catch { return error as? SWCredError }
    }

    static let date = Date(timeIntervalSince1970: 1_700_000_000)

    /// Imports into empty contents and exports as JSON lines.
    static func importedJSONLines(_ file: CredentialFile) throws -> String {
        var contents = StoreContents(creationDate: date)
        _ = try file.apply(to: &contents, onConflict: .fail, at: date)
        return String(decoding: try CredentialExport.encode(contents.items, as: .jsonl), as: UTF8.self)
    }

    @Test(
        "each fixture is detected by its header and gives the expected items",
        arguments: [
            ("safari.csv", CredentialFileFormat.safari, 3, 0),
            ("chrome.csv", .chrome, 4, 1),
            ("firefox.csv", .firefox, 3, 1),
            ("bitwarden.csv", .bitwarden, 3, 1),
            ("1password.csv", .onePassword, 2, 0),
            ("swcred.jsonl", .jsonl, 3, 0),
        ])
    func fixtures(_ name: String, _ format: CredentialFileFormat, _ rows: Int, _ skipped: Int) throws {
        let input = try CredentialFile.read(path: Self.exports.appendingPathComponent(name).path)
        let file = try CredentialFile.parse(input)
        #expect(file.format == format)
        #expect(file.rows == rows)
        #expect(file.skipped.count == skipped)
        let stem = name.split(separator: ".")[0]
        let expected = try String(
            contentsOf: Self.exports.appendingPathComponent("expected/\(stem).jsonl"), encoding: .utf8)
        #expect(try Self.importedJSONLines(file) == expected)
        // --from with the right format reads the same; with another CSV format the header is refused.
        #expect(try CredentialFile.parse(input, format: format).credentials == file.credentials)
        if format != .jsonl {
            let other: CredentialFileFormat = format == .chrome ? .firefox : .chrome
            #expect(throws: SWCredError(.malformedInput, "")) { try CredentialFile.parse(input, format: other) }
        }
    }

    @Test("CLI-IMPORT: a row whose URL has no host is invalid; the message names line and column, never the password")
    func noHost() throws {
        for url in [
            "", "https://", "https:///path", "https://:8443/", "http://user@/", "https://[::1]/",
            "https://exa mple.com/",
        ] {
            let text = "name,url,username,password\nok,https://ok.example/,u,FIRST-SECRET\nbad,\(url),v,SECOND-SECRET\n"
            let error = try #require(Self.failure(text), "\(url)")
            #expect(error.code == .malformedInput)
            #expect(error.message.contains("line 3, column 5"), "\(error.message)")
            #expect(!error.message.contains("SECRET"))
        }
    }

    @Test("android://, chrome:// and other non-web URLs are skipped; Bitwarden items that are not logins are skipped")
    func skippedRows() throws {
        let chrome = try Self.parse(
            "name,url,username,password\na,android://x==@com.example.app/,u,p1\nb,ftp://files.example/,u,p2\nc,https://c.example/,u,p3\n"
        )
        #expect(chrome.rows == 3)
        #expect(chrome.skipped.map { $0.line } == [2, 3])
        #expect(chrome.credentials.map(\.site.host) == ["c.example"])
        let bitwarden = try Self.parse(
            "type,login_uri,login_username,login_password\ncard,,,\nidentity,,,\nlogin,https://a.example/,u,p\n")
        #expect(bitwarden.format == .bitwarden)
        #expect(bitwarden.skipped.count == 2)
        #expect(bitwarden.credentials.count == 1)
    }

    @Test("URLs: host lowercased, trailing dot dropped, default ports dropped, user info ignored")
    func urls() throws {
        let file = try Self.parse(
            "name,url,username,password\n"
                + "a,HTTPS://User:x@Example.COM.:443/path?q#f,u,p\n"
                + "b,http://example.com:80,u,p\n"
                + "c,https://example.com:80/,u,p\n"
                + "d,example.org/login,u,p\n")
        let sites = file.credentials.map(\.site)
        #expect(sites[0] == ImportedSite(host: "example.com", port: 0, protocolCode: "htps"))
        #expect(sites[1] == ImportedSite(host: "example.com", port: 0, protocolCode: "http"))
        #expect(sites[2] == ImportedSite(host: "example.com", port: 80, protocolCode: "htps"))
        #expect(sites[3] == ImportedSite(host: "example.org", port: 0, protocolCode: "htps"))
        #expect(Self.failure("name,url,username,password\na,https://example.com:70000/,u,p\n")?.code == .malformedInput)
        #expect(Self.failure("name,url,username,password\na,https://bücher.example/,u,p\n")?.code == .malformedInput)
    }

    @Test("an empty JSON lines export (a store without passwords) reads back as zero rows with the format given; under auto it is malformedInput naming --from jsonl")
    func emptyJSONLines() throws {
        // Found by the credential-import fuzz target (FailCases/credential-import/crash-e4602550…):
        // a header-only CSV imports nothing, its JSON lines export is empty, and that export did
        // not read back even as JSON lines.
        let header = try Self.parse("Title,URL,Username,Password,Notes,OTPAuth\n")
        #expect(header.rows == 0 && header.credentials.isEmpty)
        let exported = try CredentialExport.encode([], as: .jsonl)
        for input in [exported, [], Array(" \n\r\n".utf8)] {
            let file = try CredentialFile.parse(copying: input, format: .jsonl)
            #expect(file.format == .jsonl && file.rows == 0 && file.credentials.isEmpty)
            var contents = StoreContents(creationDate: Self.date)
            let summary = try file.apply(to: &contents, onConflict: .fail, at: Self.date)
            #expect(summary.rows == 0 && summary.added == 0 && contents.items.isEmpty)
            let auto = try #require(Self.failure(String(decoding: input, as: UTF8.self)))
            #expect(auto.code == .malformedInput && auto.message.contains("--from jsonl"), "\(auto.message)")
        }
        // A CSV format given for an empty input still has no header: malformed.
        #expect(Self.failure("", format: .safari)?.code == .malformedInput)
    }

    @Test("rows: field count must match the header; empty and oversized passwords are invalid")
    func rowChecks() throws {
        #expect(
            Self.failure("name,url,username,password\na,https://a.example/,u\n")?.message.contains("line 2") == true)
        let empty = try #require(Self.failure("name,url,username,password\na,https://a.example/,u,\n"))
        #expect(empty.message.contains("line 2, column 24"), "\(empty.message)")
        let long = String(repeating: "x", count: 4097)
        let tooLong = try #require(Self.failure("name,url,username,password\na,https://a.example/,u,\(long)\n"))
        #expect(tooLong.code == .malformedInput)
        #expect(!tooLong.message.contains("xxxx"))
        #expect(Self.failure("name,title,user,pass\n")?.message.contains("no known export format") == true)
        #expect(Self.failure("")?.code == .malformedInput)
    }

    @Test("JSON lines: types are checked and errors name the line and key, never the password")
    func jsonLines() throws {
        let cases = [
            "{\"server\":\"a.example\",\"account\":\"u\",\"password\":\"SECRET\",\"port\":true}",
            "{\"server\":\"a.example\",\"account\":\"u\",\"password\":\"SECRET\",\"port\":70000}",
            "{\"account\":\"u\",\"password\":\"SECRET\"}",
            "{\"server\":\"a.example/x\",\"password\":\"SECRET\"}",
            "{\"server\":\"a.example\",\"password\":5}",
            "{\"server\":\"a.example\",\"password\":\"SECRET\"",
            "[\"SECRET\"]",
        ]
        for line in cases {
            let error = try #require(
                Self.failure("{\"server\":\"ok.example\",\"password\":\"x\"}\n" + line + "\n"), "\(line)")
            #expect(error.code == .malformedInput)
            #expect(error.message.contains("line 2"), "\(error.message)")
            #expect(!error.message.contains("SECRET"), "\(error.message)")
        }
    }

    @Test("JSON lines: a key given twice is malformedInput naming the key, never a value; null is absent; a BOM is skipped")
    func jsonLinesDuplicateKeys() throws {
        let first = "{\"server\":\"ok.example\",\"password\":\"x\"}\n"
        let twice = "{\"server\":\"a.example\",\"password\":\"SECRET1\",\"password\":\"SECRET2\"}"
        let error = try #require(Self.failure(first + twice + "\n"))
        #expect(error.code == .malformedInput)
        #expect(error.message == "line 2, column 1 (password): \"password\" appears more than once", "\(error.message)")
        let nested = "{\"server\":\"a.example\",\"password\":\"SECRET\",\"note\":{\"k\":1,\"k\":2}}"
        let inNested = try #require(Self.failure(first + nested + "\n"))
        #expect(inNested.message == "line 2, column 1 (note.k): \"k\" appears more than once", "\(inNested.message)")
        // Unknown keys and null members are as before: ignored, and the same as absent.
        let file = try Self.parse(
            first + "{\"server\":\"b.example\",\"account\":null,\"port\":null,\"x\":[{}],\"password\":\"y\"}\n")
        #expect(file.credentials.map(\.account) == ["", ""])
        // A byte-order mark at a line's start is skipped, as Foundation's reader did.
        let marked = try Self.parse(first + "\u{FEFF}{\"server\":\"c.example\",\"password\":\"z\"}\n")
        #expect(marked.credentials.count == 2)
        #expect(Self.failure(first + "{\"server\":\"b.example\",\"password\":\"y\",\"port\":80.5}\n")?.message
            == "line 2, column 1 (port): \"port\" has a value out of range")
    }

    @Test("CLI-IMPORT: conflicts with the store and within the file follow --on-conflict; same password is unchanged")
    func conflicts() throws {
        var store = StoreContents(creationDate: Self.date)
        let seed = try Self.parse("{\"server\":\"a.example\",\"account\":\"u\",\"password\":\"old\"}\n")
        _ = try seed.apply(to: &store, onConflict: .fail, at: Self.date)
        let file = try Self.parse(
            "{\"server\":\"a.example\",\"account\":\"u\",\"password\":\"new\"}\n"
                + "{\"server\":\"b.example\",\"account\":\"u\",\"password\":\"one\"}\n"
                + "{\"server\":\"b.example\",\"account\":\"u\",\"password\":\"two\"}\n"
                + "{\"server\":\"b.example\",\"account\":\"u\",\"password\":\"two\"}\n")

        var failing = store
        #expect(throws: SWCredError(.duplicateItem, "")) {
            try file.apply(to: &failing, onConflict: .fail, at: Self.date)
        }

        var skipping = store
        let skipped = try file.apply(to: &skipping, onConflict: .skip, at: Self.date)
        #expect(skipped == summary(rows: 4, added: 1, skipped: 3))
        #expect(skipping.items.map { $0.password } == ["old", "one"])

        var updating = store
        let updated = try file.apply(to: &updating, onConflict: .update, at: Self.date)
        #expect(updated == summary(rows: 4, added: 1, updated: 2, unchanged: 1))
        #expect(updating.items.map { $0.password } == ["new", "two"])

        // Two passwords for b.example in one file conflict with each other, even in an empty store.
        var empty = StoreContents(creationDate: Self.date)
        let inFile = try #require(throws: SWCredError.self) {
            try file.apply(to: &empty, onConflict: .fail, at: Self.date)
        }
        #expect(inFile.code == .duplicateItem)
        #expect(inFile.message.contains("line 3") && inFile.message.contains("line 2 of the file"), "\(inFile.message)")
        let same = try seed.apply(to: &store, onConflict: .fail, at: Self.date)
        #expect(same == summary(rows: 1, unchanged: 1))
    }

    @Test("SWC-5.3: rows for a server with a \"Passwords not saved\" entry are skipped, as add refuses them")
    func neverSavedServersAreSkipped() throws {
        var store = StoreContents(creationDate: Self.date)
        try store.add(InternetPasswordItem.negativeEntry(server: "never.example"), at: Self.date)
        let file = try Self.parse(
            "{\"server\":\"never.example\",\"account\":\"u\",\"password\":\"x\"}\n"
                + "{\"server\":\"ok.example\",\"account\":\"u\",\"password\":\"y\"}\n")
        for policy in ImportConflictPolicy.allCases {
            var contents = store
            let result = try file.apply(to: &contents, onConflict: policy, at: Self.date)
            #expect(result == summary(rows: 2, added: 1, skipped: 1), "\(policy)")
            #expect(contents.items.filter { !$0.isNegative }.map(\.server) == ["ok.example"])
        }
    }

    @Test("SWC-5.3: saveWebsitePassword refuses a never-saved server; -U semantics: updated, unchanged, duplicate")
    func saveWebsitePassword() throws {
        var contents = StoreContents(creationDate: Self.date)
        let item = InternetPasswordItem.websitePassword(server: "a.example", account: "u", secret: Array("one".utf8))
        #expect(try contents.saveWebsitePassword(item, update: false, at: Self.date) == .added)
        var duplicate = item
        duplicate.secret = Array("other".utf8)
        #expect(try contents.saveWebsitePassword(duplicate, update: false, at: Self.date) == .keyExists)
        #expect(contents.items.first?.secret == Array("one".utf8), "a refused save changed the item")
        #expect(try contents.saveWebsitePassword(item, update: true, at: Self.date) == .unchanged)
        var changed = item
        changed.secret = Array("two".utf8)
        #expect(try contents.saveWebsitePassword(changed, update: true, at: Self.date) == .updated)
        #expect(contents.items.first?.secret == Array("two".utf8))
        try contents.add(InternetPasswordItem.negativeEntry(server: "b.example", port: 8443), at: Self.date)
        let other = InternetPasswordItem.websitePassword(server: "b.example", account: "v", secret: Array("x".utf8))
        let before = contents.items.count
        #expect(try contents.saveWebsitePassword(other, update: true, at: Self.date) == .serverNeverSaved)
        #expect(contents.items.count == before, "a never-saved server got an item")
    }

    func summary(rows: Int, added: Int = 0, updated: Int = 0, skipped: Int = 0, unchanged: Int = 0) -> ImportSummary {
        var s = ImportSummary(rows: rows)
        s.added = added
        s.updated = updated
        s.skipped = skipped
        s.unchanged = unchanged
        return s
    }

    @Test("imported items carry the Shared Web Credentials attributes, so request and show find them")
    func itemAttributes() throws {
        var contents = StoreContents(creationDate: Self.date)
        _ = try Self.parse("name,url,username,password\na,https://a.example:8443/,alice,pw\n")
            .apply(to: &contents, onConflict: .fail, at: Self.date)
        let item = try #require(contents.items.first)
        #expect(item.server == "a.example" && item.port == 8443 && item.account == "alice")
        #expect(item.protocolCode == "htps" && item.authenticationType == "form")
        #expect(item.accessGroup == "com.apple.cfnetwork" && item.synchronizable && item.creator == "swca")
        #expect(item.label == "a.example (alice)" && item.comment == "default")
    }

    @Test(
        "export: Safari and Chrome CSV and JSON lines read back to the same items, tricky passwords included",
        arguments: CredentialExportFormat.allCases)
    func exportRoundTrip(_ format: CredentialExportFormat) throws {
        var contents = StoreContents(creationDate: Self.date)
        let passwords = ["plain", "com,ma", "qu\"ote", "new\nline", "cr\r\nlf", "tab\there", " lead", "ünï", "\\back"]
        for (index, password) in passwords.enumerated() {
            try contents.add(
                CredentialFile.item(
                    for: ImportedCredential(
                        line: index,
                        site: ImportedSite(
                            host: "h\(index).example", port: index == 2 ? 8443 : 0,
                            protocolCode: index == 3 ? "http" : "htps"),
                        account: index == 4 ? "" : "user,\(index)", secret: 0..<0),
                    secret: Array(password.utf8)),
                at: Self.date)
        }
        try contents.add(.negativeEntry(server: "never.example"), at: Self.date)
        let exported = try CredentialExport.encode(contents.items, as: format)
        let file = try CredentialFile.parse(copying: exported)
        var back = StoreContents(creationDate: Self.date)
        let result = try file.apply(to: &back, onConflict: .fail, at: Self.date)
        #expect(result.added == passwords.count)
        #expect(back.items == contents.items.filter { !$0.isNegative })
    }

    @Test("a 100 MB file is refused from its size before it is read")
    func fileSizeLimit() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("big-\(UUID().uuidString).csv").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 100 << 20)  // sparse: nothing is written
        try handle.close()
        #expect(throws: SWCredError(.limitExceeded, "")) { try CredentialFile.read(path: path) }
    }

    @Test("a pipe longer than the limit is refused while reading")
    func pipeLimit() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let payload = [UInt8](repeating: 0x61, count: 40_000)
        let written = payload.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
        #expect(written == 40_000)
        close(writeEnd)
        defer { close(readEnd) }
        var limits = ImportLimits()
        limits.maxInputBytes = 30_000
        #expect(throws: SWCredError(.limitExceeded, "")) {
            try CredentialFile.read(descriptor: readEnd, limits: limits)
        }
    }

    @Test("a pipe within the limit is read whole")
    func pipeRead() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let payload = (0..<150_000).map { UInt8(truncatingIfNeeded: $0) }
        let writer = Thread {
            payload.withUnsafeBytes { _ = write(writeEnd, $0.baseAddress, $0.count) }
            close(writeEnd)
        }
        writer.start()
        defer { close(readEnd) }
        let read = try CredentialFile.read(descriptor: readEnd)
        #expect(read.withUnsafeBytes { Array($0) } == payload)
    }
}
