import Foundation
import SWCredArtifacts
import SWCredCore
import Testing

/// cli.md's `"artifact"` object, by field name, and the path dispatch behind it.
@Suite("ArtifactReport and SignedArtifact")
struct ArtifactReportTests {
    static func json(_ report: ArtifactReport) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }

    @Test(
        "a signed Mach-O: every field cli.md names, null where nothing is known",
        .enabled(if: FixtureTools.canLink, "clang or ld64.lld-14 is not installed"))
    func machO() throws {
        let path = try Fixtures.write(try Fixtures.signed(), "report-\(UUID().uuidString)")
        let artifact = try #require(try SignedArtifact.load(path: path.path))
        #expect(artifact.signedEntitlements?.applicationIdentifier == "ABCDE12345.com.example.TacoShop")
        let expected =
            #"{"bundleID":null,"kind":"macho","nested":[],"profile":null,"#
            + #""slices":[{"appID":"ABCDE12345.com.example.TacoShop","arch":"arm64","#
            + #""associatedDomains":["webcredentials:example.com","applinks:example.com","#
            + #""applinks:*.example.com?mode=developer"],"identifier":"com.example.TacoShop","sealed":true,"#
            + #""teamID":"ABCDE12345"}]}"#
        #expect(try Self.json(ArtifactReport(artifact)) == expected)
    }

    @Test(
        "a profile: \"*\" as a string, the expiry in ISO 8601, a device count and no UDID",
        .enabled(if: ProvisioningProfileTests.openssl != nil, "openssl is not installed"))
    func profile() throws {
        let bytes = try ProvisioningProfileTests.profile(ProvisioningProfileTests.payload(), stream: true)
        let path = try Fixtures.write(bytes, "\(UUID().uuidString).mobileprovision")
        let artifact = try #require(try SignedArtifact.load(path: path.path))
        let json = try Self.json(ArtifactReport(artifact))
        let expected =
            #"{"bundleID":null,"kind":"profile","nested":[],"profile":{"appIDPrefixes":["ABCDE12345"],"#
            + #""associatedDomains":"*","devices":2,"expires":"2027-01-01T00:00:00Z","kind":"development","#
            + #""teamID":"ABCDE12345","uuid":"11111111-2222-3333-4444-555555555555"},"slices":[]}"#
        #expect(json == expected)
        for secret in ProvisioningProfileTests.udids + ["Fake Team Name", "Fake Developer"] {
            #expect(!json.contains(secret))
        }
    }

    @Test(
        "paths: an .app folder, an .ipa, a source .entitlements file (not an artifact), a missing file",
        .enabled(if: FixtureTools.canLink && AppArchiveTests.zip != nil, "clang, ld64.lld-14 or zip is missing"))
    func dispatch() throws {
        let app = try AppBundleTests.makeApp(try AppArchiveTests.signedApp())
        guard case .app(let bundle)? = try SignedArtifact.load(path: app + "/") else {
            Issue.record("an .app folder is not read as an app")
            return
        }
        #expect(bundle.bundleIdentifier == Fixtures.bundleID)
        let ipa = try Fixtures.write(try AppArchiveTests.ipa(try AppArchiveTests.signedApp()), "\(UUID()).ipa")
        let fromIPA = try #require(try SignedArtifact.load(path: ipa.path))
        #expect(try Self.json(ArtifactReport(fromIPA)).contains(#""kind":"ipa""#))
        #expect(fromIPA.signedEntitlements == bundle.executable.slices.first?.signature?.entitlements)
        let source = try Fixtures.write(Array(TestSigner.xmlPlist(Fixtures.entitlements).utf8), "App.entitlements")
        #expect(try SignedArtifact.load(path: source.path) == nil)
        #expect(try SignedArtifact.load(path: "/nonexistent/swcred/App.entitlements") == nil)
        #expect(throws: SWCredError(.fileNotFound, "")) { try SignedArtifact.load(path: "/nonexistent/x.ipa") }
    }

    @Test("expiry dates agree with Foundation's ISO 8601 formatter", arguments: 0..<4)
    func iso8601(seed: Int) {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let seconds = Double(Int.random(in: -3_000_000_000...8_000_000_000, using: &generator))
            let foundation = Date(timeIntervalSinceReferenceDate: seconds).ISO8601Format()
            #expect(ArtifactReport.iso8601ForTesting(seconds) == foundation, "\(seconds)")
        }
    }
}
