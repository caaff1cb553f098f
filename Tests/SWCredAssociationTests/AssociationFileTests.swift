import Foundation
import SWCredAssociation
import SWCredCore
import Testing

@Suite("Association files (section 3) and parse limits")
struct AssociationFileTests {
    typealias T = TestSupport
    static let malformed = SWCredError(.malformedAASA, "")

    @Test("AD-3.1: unknown top-level keys are ignored; a non-object top level is a parse failure (AD-4.9)")
    func topLevel() throws {
        let file = try T.file(#"{"frobnicate": 1, "webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}"#)
        #expect(file.lists(appID: T.appID, for: .webcredentials))
        for text in ["[]", "\"x\"", "42", "null"] {
            #expect(throws: Self.malformed) { try T.file(text) }
        }
        do {
            _ = try AssociationFile.parse(Array("[1]".utf8))
            Issue.record("a top-level array was accepted")
        } catch {
            #expect(error.message.contains("NSCocoaErrorDomain 3840"))
        }
    }

    @Test(
        "AD-4.9: invalid JSON fails as NSCocoaErrorDomain 3840",
        arguments: [
            "", "{", "{\"a\":}", "{\"a\":1,}", "{'a':1}", "{\"a\":1} x", "{\"a\":01}", "{\"a\":\"\u{01}\"}",
            "{\"a\":\"\\ud800\"}", "{\"a\":tru}", "{\"a\":1e999}",
        ])
    func invalidJSON(text: String) {
        #expect(throws: Self.malformed) { try T.file(text) }
    }

    @Test("AD-3.2: apps lists take string elements only; details outside applinks are ignored")
    func appsLists() throws {
        let file = try T.file(
            #"{"webcredentials": {"apps": [7, null, "ABCDE12345.com.example.app"], "details": [{"appID": "OTHER12345.x"}]}, "appclips": {"apps": ["ABCDE12345.com.example.app.Clip"]}, "activitycontinuation": {"apps": []}}"#
        )
        #expect(file.apps(for: .webcredentials) == [T.appID])
        #expect(file.lists(appID: T.appID, for: .webcredentials))
        #expect(!file.lists(appID: "OTHER12345.x", for: .webcredentials))
        #expect(file.lists(appID: "ABCDE12345.com.example.app.Clip", for: .appclips))
        #expect(file.apps(for: .activitycontinuation) == [])
        #expect(file.apps(for: .applinks) == nil)
    }

    @Test("AD-3.3: applinks.apps content is ignored; details may be the legacy dictionary")
    func applinksApps() throws {
        let file = try T.file(#"{"applinks": {"apps": ["ZZZZZ12345.com.z"], "details": []}}"#)
        #expect(!file.lists(appID: "ZZZZZ12345.com.z", for: .applinks))
        let legacy = try T.file(#"{"applinks": {"details": {"b": {}, "ABCDE12345.com.example.app": {}, "a": {}}}}"#)
        #expect(legacy.applinks?.details.map { $0.appIDs[0] } == ["ABCDE12345.com.example.app", "a", "b"])
    }

    @Test("AD-3.4: appIDs shadows appID; a non-array appIDs counts as empty")
    func appIDs() throws {
        let both = try T.file(#"{"applinks": {"details": [{"appID": "A", "appIDs": ["B"]}]}}"#)
        #expect(both.applinks?.details[0].appIDs == ["B"])
        let bad = try T.file(#"{"applinks": {"details": [{"appID": "A", "appIDs": "A"}]}}"#)
        #expect(bad.applinks?.details[0].appIDs == [])
        let none = try T.file(#"{"applinks": {"details": [{"appID": 5}]}}"#)
        #expect(none.applinks?.details[0].appIDs == [])
    }

    @Test("AD-3.8: a PKCS#7 signed file is unwrapped with a deprecation warning (signature not checked)")
    func signed() throws {
        let url = TestSupport.fixtures.appendingPathComponent(
            "sites/signed.example/.well-known/apple-app-site-association")
        let bytes = [UInt8](try Data(contentsOf: url))
        #expect(bytes.first == 0x30)
        let file = try AssociationFile.parse(bytes)
        #expect(file.wasSigned)
        #expect(file.diagnostics.contains { $0.message.contains("deprecated") })
        #expect(file.lists(appID: "ABCDE12345.com.example.tacoshop", for: .webcredentials))
        // A DER-looking body that is not SignedData is just invalid JSON.
        #expect(throws: Self.malformed) { try AssociationFile.parse([0x30, 0x03, 0x02, 0x01, 0x00]) }
    }

    @Test("AD-3.9 Decision: a UTF-8 BOM is skipped with a warning; the last duplicate key wins, with a warning")
    func bomAndDuplicates() throws {
        let file = try AssociationFile.parse(
            [0xEF, 0xBB, 0xBF]
                + Array(#"{"webcredentials": {"apps": ["X"], "apps": ["ABCDE12345.com.example.app"]}}"#.utf8))
        #expect(file.hadByteOrderMark)
        #expect(file.apps(for: .webcredentials) == [T.appID])
        #expect(file.duplicateKeys.map(\.key) == ["apps"])
        #expect(file.diagnostics.count == 2)
    }

    @Test("AD-4.6: exactly 131072 bytes is accepted, 131073 is rejected with -1103")
    func sizeCap() throws {
        let prefix = Array(#"{"webcredentials":{"apps":["ABCDE12345.com.example.app"]},"pad":""#.utf8)
        let suffix = Array(#""}"#.utf8)
        let exact =
            prefix + [UInt8](repeating: UInt8(ascii: "a"), count: 131_072 - prefix.count - suffix.count) + suffix
        #expect(exact.count == 131_072)
        #expect(try AssociationFile.parse(exact).lists(appID: T.appID, for: .webcredentials))
        let over = prefix + [UInt8](repeating: UInt8(ascii: "a"), count: 131_073 - prefix.count - suffix.count) + suffix
        do {
            _ = try AssociationFile.parse(over)
            Issue.record("131073 bytes were accepted")
        } catch {
            #expect(error.code == .malformedAASA)
            #expect(error.message.contains("Data exceeded maximum length of 131072 bytes."))
            #expect(error.message.contains("-1103"))
        }
    }

    @Test("Nesting deeper than the limit is refused without recursion trouble")
    func depthLimit() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: Self.malformed) { try AssociationFile.parse(Array(deep.utf8)) }
        let ok = "{\"a\":" + String(repeating: "[", count: 60) + String(repeating: "]", count: 60) + "}"
        #expect((try? AssociationFile.parse(Array(ok.utf8))) != nil)
    }

    @Test("Stored snapshots round-trip through Codable")
    func codable() throws {
        let file = try T.file(
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/a"}]}]}}"#)
        let data = try JSONEncoder().encode(file)
        let decoded = try JSONDecoder().decode(AssociationFile.self, from: data)
        #expect(decoded == file)
    }

    @Test("JSON strings decode escapes and surrogate pairs")
    func escapes() throws {
        let file = try T.file(#"{"webcredentials":{"apps":["\u00e9\ud83d\ude00\n\/"]}}"#)
        #expect(file.apps(for: .webcredentials) == ["é😀\n/"])
    }
}

extension TestSupport {
    /// `Fixtures/` in the repository.
    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures")
    }
}
