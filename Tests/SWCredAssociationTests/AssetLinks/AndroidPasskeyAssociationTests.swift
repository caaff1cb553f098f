import Foundation
import SWCredAssociation
import Testing

/// May an Android app use an RP ID for passkeys (DAL-Q4): the RP ID host's list, as Google reads it.
@Suite("Android passkey association (DAL-Q4)")
struct AndroidPasskeyAssociationTests {
    static let both = ["delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds"]

    static func evaluate(_ files: [String: String]) async throws -> AndroidPasskeyAssociation {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        for (path, body) in files { try AssetLinksDirectorySourceTests.write(body, path, in: root) }
        return await AndroidPasskeyAssociation.evaluate(
            app: try #require(AssetLinksTests.app), rpID: "example.com",
            source: AssetLinksDirectorySource(root: root.path))
    }

    @Test("DAL-Q4: both relations granted, directly or through an include, approve the app")
    func approved() async throws {
        let direct = try await Self.evaluate([
            "example.com/.well-known/assetlinks.json": "[\(AssetLinksTests.statement(Self.both))]"
        ])
        #expect(direct.outcome == .approved)
        #expect(direct.missing.isEmpty)
        let included = try await Self.evaluate([
            "example.com/.well-known/assetlinks.json": #"[{"include": "https://shared.example/app.json"}]"#,
            "shared.example/app.json": "[\(AssetLinksTests.statement(Self.both))]",
        ])
        #expect(included.outcome == .approved, "\(included.reason)")
    }

    @Test("DAL-Q4, DAL-S7: one malformed element does not fail the list for Google's reading, which decides")
    func googleReadingDecides() async throws {
        let gate = try await Self.evaluate([
            "example.com/.well-known/assetlinks.json":
                #"[{"relation":["x/y"],"target":{"namespace":"ios_app","appid":"1"}},"#
                + "\(AssetLinksTests.statement(Self.both))]"
        ])
        #expect(gate.outcome == .approved, "\(gate.reason)")
    }

    @Test("DAL-Q4: one relation missing, or the app listed with another fingerprint, is notListed naming what is missing")
    func notListed() async throws {
        let one = try await Self.evaluate([
            "example.com/.well-known/assetlinks.json":
                "[\(AssetLinksTests.statement(["delegate_permission/common.get_login_creds"]))]"
        ])
        #expect(one.outcome == .notListed)
        #expect(one.missing == [.handleAllURLs])
        #expect(one.reason.contains("delegate_permission/common.handle_all_urls"))
        let other = "AA:" + String(repeating: "0B:", count: 30) + "CC"
        let wrong = try await Self.evaluate([
            "example.com/.well-known/assetlinks.json": "[\(AssetLinksTests.statement(Self.both, prints: [other]))]"
        ])
        #expect(wrong.outcome == .notListed)
        #expect(wrong.missing == [.handleAllURLs, .getLoginCreds])
        #expect(wrong.reason.contains(other))
    }

    @Test("DAL-Q4, DAL-F1, DAL-S1: no file, a redirect, and a body that is not a list are unreadable")
    func unreadable() async throws {
        let statement = "[\(AssetLinksTests.statement(Self.both))]"
        for files in [
            [:], ["example.com/.well-known/assetlinks.json": "{}"],
            [
                "example.com/.well-known/assetlinks.json": statement,
                "example.com/.well-known/assetlinks.json.redirect": "301 https://www.example.com/.well-known/assetlinks.json",
            ],
        ] {
            let gate = try await Self.evaluate(files)
            #expect(gate.outcome == .unreadable, "\(files)")
            #expect(gate.reason.contains("https://example.com/.well-known/assetlinks.json cannot be read"))
        }
    }
}
