import Foundation
import SWCredArtifacts
import SWCredAssociation
import SWCredCore
import Testing

/// Issue 31's findings on a signed app (`APP-n`), on apps built at test time: the executable
/// linked by ld64.lld-14 and signed by the test signer, the profile made by `openssl cms`. The
/// clock is a parameter: no test depends on the day it runs.
@Suite("SignedAppCheck: the APP-n findings")
struct SignedAppCheckTests {
    static let tools = FixtureTools.canLink && ProvisioningProfileTests.openssl != nil
    /// 2026-06-01T00:00:00Z, inside the profiles' 2026-01-01…2027-01-01.
    static let now = 801_964_800.0
    static let team = Fixtures.team
    static let appID = "\(Fixtures.team).\(Fixtures.bundleID)"

    /// The signed entitlements of a distribution build (no get-task-allow), with `domains`.
    static func entitlements(
        appID: String = appID, team: String = team, domains: [String]? = ["webcredentials:example.com"],
        taskAllow: Bool = false
    ) -> [(String, TestSigner.Value)] {
        var list: [(String, TestSigner.Value)] = [("application-identifier", .string(appID))]
        if let domains { list.append(("com.apple.developer.associated-domains", .array(domains.map { .string($0) }))) }
        list.append(("com.apple.developer.team-identifier", .string(team)))
        if taskAllow { list.append(("get-task-allow", .bool(true))) }
        return list
    }

    /// A profile's property list: its `Entitlements` hold `allowed` (nil: no associated domains).
    static func payload(
        appID: String = "\(Fixtures.team).*", allowed: String? = "<string>*</string>", team: String = team,
        created: String = "2026-01-01T00:00:00Z", expires: String = "2027-01-01T00:00:00Z", extra: String = ""
    ) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>ApplicationIdentifierPrefix</key><array><string>\(team)</string></array>
        <key>CreationDate</key><date>\(created)</date>
        <key>Entitlements</key><dict>
            <key>application-identifier</key><string>\(appID)</string>
            \(allowed.map { "<key>com.apple.developer.associated-domains</key>\($0)" } ?? "")
            <key>com.apple.developer.team-identifier</key><string>\(team)</string>
        </dict>
        <key>ExpirationDate</key><date>\(expires)</date>
        <key>ProvisionedDevices</key><array><string>00008030-001A2B3C4D5E6F70</string></array>
        <key>TeamIdentifier</key><array><string>\(team)</string></array>
        \(extra)
        </dict></plist>
        """
    }

    /// An `.app` folder with the signed executable and, unless `profile` is nil, that profile.
    static func app(
        _ entitlements: [(String, TestSigner.Value)] = entitlements(), identifier: String = Fixtures.bundleID,
        signingTeam: String = team, profile: String? = payload(), xmlEntitlements: [(String, TestSigner.Value)]? = nil
    ) throws -> SignedArtifact {
        let binary = try TestSigner.sign(
            try Fixtures.linked(.arm64), identifier: identifier, team: signingTeam, entitlements: entitlements,
            xmlEntitlements: xmlEntitlements)
        var files = ["Info.plist": AppBundleTests.info(), "TacoShop": binary]
        if let profile { files["embedded.mobileprovision"] = try ProvisioningProfileTests.profile(profile, stream: false) }
        return .app(try AppBundle.load(path: try AppBundleTests.makeApp(files)))
    }

    static func ids(_ artifact: SignedArtifact, source: Entitlements? = nil, now: Double = now) -> [String] {
        SignedAppCheck.evaluate(artifact, source: source, now: now).map(\.id)
    }

    @Test("a consistent distribution app with a profile that allows its domains has no finding",
          .enabled(if: tools, "clang, ld64.lld-14 or openssl is not installed"))
    func clean() throws {
        #expect(Self.ids(try Self.app()) == [])
    }

    @Test("APP-1: the source entitlements and the signed ones differ",
          .enabled(if: tools, "clang, ld64.lld-14 or openssl is not installed"))
    func drift() throws {
        let app = try Self.app()
        let same = try Entitlements.parse(Array(#"{"com.apple.developer.associated-domains":["webcredentials:example.com"]}"#.utf8))
        #expect(Self.ids(app, source: same) == [])
        let source = try Entitlements.parse(Array(#"{"com.apple.developer.associated-domains":["applinks:example.com"]}"#.utf8))
        let finding = try #require(SignedAppCheck.evaluate(app, source: source, now: Self.now).first)
        #expect(finding.kind == .sourceDrift && finding.severity == .warning)
        #expect(finding.message.contains("not signed: applinks:example.com"))
        #expect(finding.message.contains("signed but not in the source: webcredentials:example.com"))
    }

    @Test("APP-2: no signed associated domains is an error", .enabled(if: tools, "clang, ld64.lld-14 or openssl is not installed"))
    func noDomains() throws {
        #expect(Self.ids(try Self.app(Self.entitlements(domains: nil))) == ["APP-2"])
    }

    @Test("APP-3: a profile without associated domains, or with a list that lacks a signed entry",
          .enabled(if: tools, "clang, ld64.lld-14 or openssl is not installed"))
    func allowlist() throws {
        #expect(Self.ids(try Self.app(profile: Self.payload(allowed: nil))) == ["APP-3"])
        let list = "<array><string>webcredentials:example.com</string></array>"
        #expect(Self.ids(try Self.app(profile: Self.payload(allowed: list))) == [])
        let two = try Self.app(Self.entitlements(domains: ["webcredentials:example.com", "applinks:example.com"]),
                               profile: Self.payload(allowed: list))
        let finding = try #require(SignedAppCheck.evaluate(two, source: nil, now: Self.now).first)
        #expect(finding.kind == .domainsNotAllowed && finding.message.hasSuffix("applinks:example.com"))
    }

    @Test("APP-4: the profile's application-identifier read as a device reads it (*, TEAM.*, explicit)",
          arguments: [
              ("*", "ABCDE12345.com.example.TacoShop", true), ("ABCDE12345.*", "ABCDE12345.com.example.TacoShop", true),
              ("ABCDE12345.com.example.*", "ABCDE12345.com.example.TacoShop", true),
              ("ABCDE12345.com.example.TacoShop", "ABCDE12345.com.example.TacoShop", true),
              ("ZZZZZ99999.*", "ABCDE12345.com.example.TacoShop", false),
              ("ABCDE12345.com.other", "ABCDE12345.com.example.TacoShop", false),
          ])
    func wildcards(pattern: String, appID: String, allowed: Bool) {
        #expect(SignedAppCheck.allows(pattern, appID) == allowed)
    }

    @Test("APP-4: a profile for another App ID", .enabled(if: tools, "clang, ld64.lld-14 or openssl is not installed"))
    func otherAppID() throws {
        #expect(Self.ids(try Self.app(profile: Self.payload(appID: "ABCDE12345.com.example.other"))) == ["APP-4"])
    }

    @Test("APP-5 and APP-6: the names and the teams that differ", .enabled(if: tools, "clang, ld64.lld-14 or openssl is not installed"))
    func identity() throws {
        #expect(Self.ids(try Self.app(identifier: "com.example.Other")) == ["APP-5"])
        let team = try Self.app(signingTeam: "ZZZZZ99999")
        #expect(Self.ids(team) == ["APP-6"])
        let message = SignedAppCheck.evaluate(team, source: nil, now: Self.now).first?.message ?? ""
        #expect(message.contains("ZZZZZ99999") && message.contains("ABCDE12345"))
    }

    @Test("APP-7: an App ID prefix that is not the Team ID is explained", .enabled(if: tools, "clang, ld64.lld-14 or openssl is not installed"))
    func legacyPrefix() throws {
        let app = try Self.app(
            Self.entitlements(appID: "9ZYX8WV7UT.\(Fixtures.bundleID)"), profile: Self.payload(appID: "9ZYX8WV7UT.*"))
        let finding = try #require(SignedAppCheck.evaluate(app, source: nil, now: Self.now).first)
        #expect(Self.ids(app) == ["APP-7"])
        #expect(finding.severity == .note && finding.message.contains("9ZYX8WV7UT.\(Fixtures.bundleID)"))
    }

    @Test("APP-8: ?mode=developer entries in a distribution-signed app; none in a development-signed one",
          .enabled(if: tools, "clang, ld64.lld-14 or openssl is not installed"))
    func developerMode() throws {
        let domains = ["webcredentials:example.com", "applinks:dev.example.com?mode=developer"]
        #expect(Self.ids(try Self.app(Self.entitlements(domains: domains))) == ["APP-8"])
        #expect(Self.ids(try Self.app(Self.entitlements(domains: domains, taskAllow: true))) == [])
    }

    @Test("APP-9: the profile's dates against an injected clock", .enabled(if: tools, "clang, ld64.lld-14 or openssl is not installed"))
    func dates() throws {
        let app = try Self.app()
        #expect(Self.ids(app, now: Self.now) == [])
        #expect(Self.ids(app, now: 770_428_800) == ["APP-9"])  // 2025-06-01: not valid yet
        #expect(Self.ids(app, now: 833_500_800) == ["APP-9"])  // 2027-06-01: expired
        let expired = SignedAppCheck.evaluate(app, source: nil, now: 833_500_800).first?.message ?? ""
        #expect(expired.contains("2027-01-01T00:00:00Z"))
    }

    @Test("APP-10: a personal team's profile (LocalProvision; a team name's suffix, never printed)",
          .enabled(if: tools, "clang, ld64.lld-14 or openssl is not installed"))
    func personalTeam() throws {
        #expect(Self.ids(try Self.app(profile: Self.payload(extra: "<key>LocalProvision</key><true/>"))) == ["APP-10"])
        let named = try Self.app(profile: Self.payload(extra: "<key>TeamName</key><string>Jane Doe (Personal Team)</string>"))
        let findings = SignedAppCheck.evaluate(named, source: nil, now: Self.now)
        #expect(findings.map(\.id) == ["APP-10"])
        #expect(findings.allSatisfy { !$0.message.contains("Jane") })
    }

    @Test("APP-11: an unexpanded $(…) or a * in the signed application-identifier",
          .enabled(if: tools, "clang, ld64.lld-14 or openssl is not installed"))
    func unexpanded() throws {
        let app = try Self.app(Self.entitlements(appID: "$(AppIdentifierPrefix)\(Fixtures.bundleID)"))
        #expect(Self.ids(app).contains("APP-11"))
        let star = try Self.app(Self.entitlements(appID: "ABCDE12345.*"))
        #expect(Self.ids(star).contains("APP-11"))
    }

    @Test("APP-12: XML and DER blobs that disagree", .enabled(if: tools, "clang, ld64.lld-14 or openssl is not installed"))
    func blobsDisagree() throws {
        let app = try Self.app(xmlEntitlements: Self.entitlements(domains: ["applinks:example.com"]))
        #expect(Self.ids(app) == ["APP-12"])
    }

    @Test("APP-13: entitlements edited after signing are not sealed", .enabled(if: tools, "clang, ld64.lld-14 or openssl is not installed"))
    func notSealed() throws {
        var binary = try TestSigner.sign(
            try Fixtures.linked(.arm64), identifier: Fixtures.bundleID, team: Self.team, entitlements: Self.entitlements())
        // Edit the XML blob's copy of the domain after signing (the DER blob, which is read, is unchanged).
        let needle = Array("<string>webcredentials:example.com".utf8)
        let at = try #require((0...(binary.count - needle.count)).first { binary[$0..<($0 + needle.count)].elementsEqual(needle) })
        binary[at + needle.count - 1] = UInt8(ascii: "n")
        let path = try AppBundleTests.makeApp([
            "Info.plist": AppBundleTests.info(), "TacoShop": binary,
            "embedded.mobileprovision": try ProvisioningProfileTests.profile(Self.payload(), stream: false),
        ])
        let ids = Self.ids(.app(try AppBundle.load(path: path)))
        #expect(ids.contains("APP-13") && ids.contains("APP-12"), "\(ids)")
    }

    @Test("APP-14: an app without a profile is a note; a bare executable needs none",
          .enabled(if: tools, "clang, ld64.lld-14 or openssl is not installed"))
    func noProfile() throws {
        let findings = SignedAppCheck.evaluate(try Self.app(profile: nil), source: nil, now: Self.now)
        #expect(findings.map(\.id) == ["APP-14"])
        #expect(findings.first?.severity == .note)
        let machO = SignedArtifact.machO(
            try MachOFile.read(
                try TestSigner.sign(
                    try Fixtures.linked(.arm64), identifier: Fixtures.bundleID, team: Self.team,
                    entitlements: Self.entitlements())))
        #expect(Self.ids(machO) == [])
    }

    @Test("findings come errors first; every kind has a rule-book entry", .enabled(if: tools, "clang, ld64.lld-14 or openssl is not installed"))
    func orderAndEntries() throws {
        let app = try Self.app(
            Self.entitlements(domains: ["applinks:dev.example.com?mode=developer"]), profile: Self.payload(allowed: nil))
        #expect(Self.ids(app) == ["APP-3", "APP-8"])
        for kind in SignedAppFinding.Kind.allCases {
            #expect(RuleBook.rule(kind.rawValue)?.kind == .lint, "\(kind.rawValue) has no rule-book entry")
        }
    }

    /// The files of a nested bundle at `folder` (`PlugIns/Share.appex`): its Info.plist, its
    /// executable signed as `bundleID`, and a profile.
    static func nestedFiles(
        _ folder: String, bundleID: String, signingTeam: String = team, domains: [String]? = nil
    ) throws -> [String: [UInt8]] {
        let name = String(folder.split(separator: "/").last?.split(separator: ".").first ?? "Nested")
        let info = TestSigner.xmlPlist([("CFBundleExecutable", .string(name)), ("CFBundleIdentifier", .string(bundleID))])
        let binary = try TestSigner.sign(
            try Fixtures.linked(.arm64), identifier: bundleID, team: signingTeam,
            entitlements: entitlements(appID: "\(team).\(bundleID)", domains: domains))
        return [
            "\(folder)/Info.plist": Array(info.utf8), "\(folder)/\(name)": binary,
            "\(folder)/embedded.mobileprovision": try ProvisioningProfileTests.profile(payload(), stream: false),
        ]
    }

    @Test("nested bundles: PlugIns/*.appex and AppClips/*.app checked as their own apps, in a folder and an .ipa",
          .enabled(if: tools && AppArchiveTests.zip != nil, "clang, ld64.lld-14, openssl or zip is not installed"))
    func nested() throws {
        var files: [String: [UInt8]] = [
            "Info.plist": AppBundleTests.info(),
            "TacoShop": try TestSigner.sign(
                try Fixtures.linked(.arm64), identifier: Fixtures.bundleID, team: Self.team,
                entitlements: Self.entitlements()),
            "embedded.mobileprovision": try ProvisioningProfileTests.profile(Self.payload(), stream: false),
        ]
        // An extension without associated domains (normal: no APP-2), and an App Clip signed by another team.
        files.merge(try Self.nestedFiles("PlugIns/Share.appex", bundleID: "\(Fixtures.bundleID).Share")) { $1 }
        files.merge(
            try Self.nestedFiles(
                "AppClips/Clip.app", bundleID: "\(Fixtures.bundleID).Clip", signingTeam: "ZZZZZ99999",
                domains: ["appclips:example.com"])
        ) { $1 }
        let folder = SignedArtifact.app(try AppBundle.load(path: try AppBundleTests.makeApp(files)))
        let ipa = SignedArtifact.ipa(try AppArchive.read(try AppArchiveTests.ipa(files)))
        for artifact in [folder, ipa] {
            let nested = try #require(artifact.bundle?.nested)
            #expect(nested.map(\.nestedPath) == ["PlugIns/Share.appex", "AppClips/Clip.app"])
            #expect(nested.map(\.bundleIdentifier) == ["\(Fixtures.bundleID).Share", "\(Fixtures.bundleID).Clip"])
            let findings = SignedAppCheck.evaluate(artifact, source: nil, now: Self.now)
            #expect(findings.map(\.id) == ["APP-6"])
            #expect(findings.first?.message.hasPrefix("AppClips/Clip.app: the teams differ") == true)
            let report = ArtifactReport(artifact)
            #expect(report.nested.map(\.kind) == ["appex", "app"])
            #expect(report.nested.map(\.path) == ["PlugIns/Share.appex", "AppClips/Clip.app"])
            #expect(report.nested.last?.slices.first?.associatedDomains == ["appclips:example.com"])
            #expect(report.nested.first?.profile?.teamID == Self.team)
        }
        // The nested-bundle budget (ArtifactLimits.maximumNestedBundles) is a named error.
        var limits = ArtifactLimits()
        limits.maximumNestedBundles = 1
        let path = try AppBundleTests.makeApp(files)
        #expect(throws: SWCredError(.malformedArtifact, "")) { try AppBundle.load(path: path, limits: limits) }
        limits.maximumNestingDepth = 0
        #expect(try AppBundle.load(path: path, limits: limits).nested.isEmpty)
    }
}
