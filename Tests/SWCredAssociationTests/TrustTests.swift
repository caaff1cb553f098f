import Foundation
import SWCredAssociation
import SWCredCore
import Testing

@Suite("Directory source (AD-4.1) and two-way trust (section 6)")
struct TrustTests {
    typealias T = TestSupport

    static func app(
        _ domains: [String], appID: String = TestSupport.appID, signed: Bool = false,
        browser: Bool = false
    ) throws -> AppIdentity {
        try AppIdentity(
            entitlements: Entitlements(
                applicationIdentifier: appID, associatedDomains: domains,
                developmentSigned: signed, webBrowser: browser))
    }

    @Test("AD-4.1: .well-known first, then the legacy root with a warning; mode entries never use the root")
    func directoryLocations() async throws {
        let root = try T.temporaryDirectory()
        try T.write(#"{"a":1}"#, to: "new.example/.well-known/apple-app-site-association", in: root)
        try T.write(#"{"b":1}"#, to: "new.example/apple-app-site-association", in: root)
        try T.write(#"{"c":1}"#, to: "old.example/apple-app-site-association", in: root)
        let source = DirectoryAssociationSource(root: root.path)
        let new = try await source.retrieve(AssociationFileRequest(host: "new.example"))
        #expect(new.body == Array(#"{"a":1}"#.utf8))
        #expect(new.source == .dir)
        #expect(new.fetch == nil)
        let old = try await source.retrieve(AssociationFileRequest(host: "old.example"))
        #expect(old.body == Array(#"{"c":1}"#.utf8))
        #expect(old.diagnostics.contains { $0.severity == .warning && $0.message.contains("legacy") })
        let mode = try await source.retrieve(AssociationFileRequest(host: "old.example", route: .modeDirect))
        #expect(mode.body == nil)
        #expect(mode.failure?.code == 404)
        let missing = try await source.retrieve(AssociationFileRequest(host: "none.example"))
        #expect(missing.body == nil)
        #expect(missing.failure?.domain == "HTTP")
    }

    @Test("AD-4.1: folders carry :port for a non-default port; hosts cannot escape the directory")
    func directoryPortsAndEscapes() async throws {
        let root = try T.temporaryDirectory()
        try T.write(#"{"p":1}"#, to: "ported.example:8443/.well-known/apple-app-site-association", in: root)
        try T.write(#"{"q":1}"#, to: "ported.example/.well-known/apple-app-site-association", in: root)
        let source = DirectoryAssociationSource(root: root.path)
        #expect(
            try await source.retrieve(AssociationFileRequest(host: "ported.example", port: 8443)).body
                == Array(#"{"p":1}"#.utf8))
        #expect(
            try await source.retrieve(AssociationFileRequest(host: "ported.example", port: 443)).body
                == Array(#"{"q":1}"#.utf8))
        #expect(try await source.retrieve(AssociationFileRequest(host: "..")).body == nil)
        #expect(try await source.retrieve(AssociationFileRequest(host: "a/../../etc")).body == nil)
    }

    @Test("AD-4.6: the directory source refuses files over 131072 bytes with -1103")
    func directorySize() async throws {
        let root = try T.temporaryDirectory()
        try T.write(
            String(repeating: " ", count: 131_073), to: "big.example/.well-known/apple-app-site-association", in: root)
        let result = try await DirectoryAssociationSource(root: root.path).retrieve(
            AssociationFileRequest(host: "big.example"))
        #expect(result.body == nil)
        #expect(result.failure?.code == -1103)
    }

    @Test("AD-6.1/AD-6.2/AD-6.4: trust per service, exact case-sensitive app IDs, a reason naming what the file lists")
    func twoWayTrust() async throws {
        let root = try T.temporaryDirectory()
        try T.write(
            #"{"webcredentials":{"apps":["OTHER12345.com.other","abcde12345.com.example.app"]},"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{}]}]},"appclips":{"apps":["ABCDE12345.com.example.app"]}}"#,
            to: "example.com/.well-known/apple-app-site-association", in: root)
        let app = try Self.app([
            "webcredentials:example.com", "applinks:example.com", "appclips:example.com",
            "activitycontinuation:example.com",
        ])
        let report = await TrustEvaluator(source: DirectoryAssociationSource(root: root.path)).evaluate(app: app)
        #expect(!report.trusted)
        let byService = Dictionary(uniqueKeysWithValues: report.associations.map { ($0.service, $0) })
        let webcredentials = try #require(byService["webcredentials"])
        #expect(!webcredentials.trusted)
        // AD-6.4: exact, case-sensitive comparison; the reason lists what the file has.
        #expect(
            webcredentials.reason.hasPrefix(
                "webcredentials.apps does not list ABCDE12345.com.example.app; it lists OTHER12345.com.other, abcde12345.com.example.app"
            ))
        #expect(byService["applinks"]?.trusted == true)
        #expect(byService["appclips"]?.trusted == true)
        #expect(byService["activitycontinuation"]?.trusted == false)
        #expect(byService["activitycontinuation"]?.reason == "the file has no activitycontinuation section")
        let only = await TrustEvaluator(source: DirectoryAssociationSource(root: root.path))
            .evaluate(app: app, services: [.applinks])
        #expect(only.trusted)
        #expect(only.associations.count == 1)
    }

    @Test("AD-6.3: services are independent: webcredentials gives no applinks association")
    func servicesIndependent() async throws {
        let root = try T.temporaryDirectory()
        try T.write(
            #"{"webcredentials":{"apps":["ABCDE12345.com.example.app"]}}"#,
            to: "example.com/.well-known/apple-app-site-association", in: root)
        let app = try Self.app(["webcredentials:example.com", "applinks:example.com"])
        let report = await TrustEvaluator(source: DirectoryAssociationSource(root: root.path)).evaluate(app: app)
        #expect(report.associations.map(\.trusted) == [true, false])
        #expect(report.associations[1].reason.contains("no applinks section"))
    }

    @Test("AD-6.6: a browser app's applinks are not trusted; its other services are unaffected")
    func browserApps() async throws {
        let root = try T.temporaryDirectory()
        try T.write(
            #"{"webcredentials":{"apps":["ABCDE12345.com.example.app"]},"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{}]}]}}"#,
            to: "example.com/.well-known/apple-app-site-association", in: root)
        let app = try Self.app(["applinks:example.com", "webcredentials:example.com"], browser: true)
        let evaluator = TrustEvaluator(source: DirectoryAssociationSource(root: root.path))
        let report = await evaluator.evaluate(app: app)
        #expect(report.associations.map(\.trusted) == [false, true])
        #expect(report.associations[0].reason.contains("web browsers cannot use applinks"))
        let decision = await LinkResolver(evaluator: evaluator).decide(try LinkURL("https://example.com/x"), app: app)
        #expect(decision.outcome == .noMatch)
    }

    @Test(
        "AD-2.6: inactive mode entries are not trusted and are never fetched; with the mode on they use the direct route"
    )
    func modeEntries() async throws {
        let root = try T.temporaryDirectory()
        try T.write(
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{}]}]}}"#,
            to: "dev.example.com/apple-app-site-association", in: root)
        let app = try Self.app(["applinks:dev.example.com?mode=developer"], signed: true)
        let source = DirectoryAssociationSource(root: root.path)
        let off = await TrustEvaluator(source: source).evaluate(app: app)
        #expect(off.associations[0].reason.contains("developer mode is disabled"))
        // Developer mode on: the mode entry goes direct (.well-known only), so the legacy file is not used.
        let on = await TrustEvaluator(source: source, device: DeviceSettings(developerMode: true)).evaluate(app: app)
        #expect(!on.associations[0].trusted)
        #expect(on.associations[0].reason.contains("404"))
        try T.write(
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{}]}]}}"#,
            to: "dev.example.com/.well-known/apple-app-site-association", in: root)
        let fixed = await TrustEvaluator(source: source, device: DeviceSettings(developerMode: true)).evaluate(app: app)
        #expect(fixed.trusted)
    }

    @Test("AD-2.6: an entry whose modes are not satisfied is skipped entirely: no retrieval at all")
    func gatedEntriesAreNotFetched() async throws {
        let counter = CountingSource(body: Array("{}".utf8))
        let app = try Self.app(
            ["applinks:dev.example.com?mode=developer", "webcredentials:m.example.com?mode=managed"],
            signed: true)
        let report = await TrustEvaluator(source: counter).evaluate(app: app)
        #expect(report.associations.map(\.trusted) == [false, false])
        #expect(counter.requests().isEmpty)
        // With both modes satisfied, both are fetched over the mode (direct) route.
        _ = await TrustEvaluator(source: counter, device: DeviceSettings(developerMode: true, managedDevice: true)).evaluate(
            app: app)
        #expect(counter.requests().map(\.route) == [.modeDirect, .modeDirect])
    }

    @Test("AD-4.8: one retrieval serves every entry that shares an origin and route")
    func oneFetchPerOrigin() async throws {
        let counter = CountingSource(
            body: Array(
                #"{"webcredentials":{"apps":["ABCDE12345.com.example.app"]},"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"]}]}}"#
                    .utf8))
        let app = try Self.app(["webcredentials:example.com", "applinks:example.com", "applinks:*.example.com"])
        let report = await TrustEvaluator(source: counter).evaluate(app: app)
        #expect(report.trusted)
        #expect(counter.requests() == [AssociationFileRequest(host: "example.com")])
    }

    @Test("A file that does not parse, and an invalid entry, are reported as not trusted")
    func failures() async throws {
        let root = try T.temporaryDirectory()
        try T.write("{", to: "bad.example/.well-known/apple-app-site-association", in: root)
        let app = try Self.app(["webcredentials:bad.example", "nonsense"])
        let report = await TrustEvaluator(source: DirectoryAssociationSource(root: root.path)).evaluate(app: app)
        #expect(report.associations.count == 2)
        #expect(report.associations[0].reason.contains("3840"))
        #expect(report.associations[1].reason.hasPrefix("invalid entry"))
        #expect(!report.trusted)
    }

    @Test("The demo fixtures: TacoShop is a mix, TacoShopRelease is fully trusted")
    func fixtures() async throws {
        let sites = T.fixtures.appendingPathComponent("sites").path
        let source = DirectoryAssociationSource(root: sites)
        let shop = try AppIdentity(
            entitlements: Entitlements.load(path: T.fixtures.appendingPathComponent("apps/TacoShop.entitlements").path))
        let mixed = await TrustEvaluator(source: source).evaluate(app: shop)
        #expect(!mixed.trusted)
        #expect(mixed.associations.contains { $0.trusted })
        let release = try AppIdentity(
            entitlements: Entitlements.load(
                path: T.fixtures.appendingPathComponent("apps/TacoShopRelease.entitlements").path))
        #expect(await TrustEvaluator(source: source).evaluate(app: release).trusted)
    }
}

/// A source that records requests and always answers with the same body (a real in-memory
/// implementation of the protocol, for counting retrievals).
final class CountingSource: AssociationFileSource, @unchecked Sendable {
    // @unchecked: `log` is only touched under `lock`.
    private let lock = NSLock()
    private var log: [AssociationFileRequest] = []
    let body: [UInt8]
    init(body: [UInt8]) { self.body = body }
    var kind: AssociationSourceKind { .dir }
    func retrieve(_ request: AssociationFileRequest) async throws -> RetrievedAssociationFile {
        lock.withLock { log.append(request) }
        return RetrievedAssociationFile(source: .dir, body: body)
    }
    func requests() -> [AssociationFileRequest] { lock.withLock { log } }
}
