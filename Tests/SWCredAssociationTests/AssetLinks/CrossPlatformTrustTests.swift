import Foundation
import SWCredAssociation
import SWCredCore
import Testing

/// The flow of `verify --android-app`: Android rows per host, app and relation, and the
/// cross-platform table (asset-links.md DAL-Q1, DAL-Q2, DAL-Q6).
@Suite("Cross-platform trust")
struct CrossPlatformTrustTests {
    static let print1 = AssetLinksTests.print1
    static let print2 = AssetLinksTests.print2

    /// A site's lists served from a table, by host.
    struct Sites: AssetLinksListSource {
        var lists: [String: String]
        var kind: AssociationSourceKind { .direct }
        func statementList(for site: AssetLinksSite) async -> AssetLinksFetch {
            lists[site.authority].map { .body(Array($0.utf8)) } ?? .failed(.fetchError, "404 Not Found")
        }
        func statementList(at url: AssetLinksURL) async -> AssetLinksFetch { .failed(.fetchError, "404 Not Found") }
    }

    /// An AASA source that has no files (the Android-only runs never ask it).
    struct NoFiles: AssociationFileSource {
        var kind: AssociationSourceKind { .direct }
        func retrieve(_ request: AssociationFileRequest) async throws -> RetrievedAssociationFile {
            RetrievedAssociationFile(
                source: .direct, body: nil, failure: AssociationFetchFailure(domain: "HTTP", code: 404, message: "404"))
        }
    }

    static func evaluate(_ lists: [String: String], hosts: [String], apps: [AndroidAppIdentity]) async throws
        -> CrossPlatformTrustReport
    {
        let sites = try hosts.map { host throws(SWCredError) in try AssetLinksSite.https(host: host) }
        return await CrossPlatformTrustEvaluator(source: NoFiles(), assetLinks: Sites(lists: lists))
            .evaluate(app: nil, androidApps: apps, hosts: sites)
    }

    @Test("DAL-Q1: one row per host, app and relation; the row's verdict is the device's")
    func rows() async throws {
        let app = try #require(AndroidAppIdentity(packageName: "com.example.app", fingerprints: [Self.print1]))
        let both = AssetLinksTests.statement([
            "delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds",
        ])
        let report = try await Self.evaluate(
            ["a.example": "[\(both)]", "b.example:8443": "[\(AssetLinksTests.statement())]"],
            hosts: ["a.example", "b.example:8443", "c.example"], apps: [app])
        let rows = report.associations.compactMap { row -> AndroidAssociationVerdict? in
            if case .android(let verdict) = row { verdict } else { nil }
        }
        #expect(rows.map { "\($0.host) \($0.relation) \($0.trusted)" } == [
            "a.example handle_all_urls true", "a.example get_login_creds true",
            "b.example:8443 handle_all_urls true", "b.example:8443 get_login_creds false",
            "c.example handle_all_urls false", "c.example get_login_creds false",
        ])
        #expect(rows[3].reason.contains("listed for delegate_permission/common.handle_all_urls, not"))
        #expect(rows[4].reason.contains("404 Not Found"))
        #expect(rows.allSatisfy { $0.source == .direct })
        #expect(!report.trusted)
        #expect(report.crossPlatform?.map(\.android.passkeys) == [true, false, false])
    }

    @Test("DAL-Q6: asymmetries are worded for either side and only where the platforms differ")
    func asymmetries() {
        let row = CrossPlatformRow(
            host: "tacos.example", iosApp: "ABCDE12345.com.example.tacoshop", androidApp: "com.example.tacos",
            ios: .init(passwords: true, links: false, passkeys: true),
            android: .init(passwords: false, links: true, passkeys: true))
        #expect(row.asymmetries == [
            "iOS app ABCDE12345.com.example.tacoshop is trusted for passwords on tacos.example, "
                + "Android app com.example.tacos is not",
            "Android app com.example.tacos is trusted for links on tacos.example, "
                + "iOS app ABCDE12345.com.example.tacoshop is not",
        ])
        let androidOnly = CrossPlatformRow(
            host: "tacos.example", iosApp: nil, androidApp: "com.example.tacos", ios: nil,
            android: .init(passwords: false, links: true, passkeys: false))
        #expect(androidOnly.asymmetries.isEmpty)
    }

    @Test("DAL-Q2: the Android hosts default to the entitlements' webcredentials and applinks hosts, a *. entry at its root")
    func defaultHosts() throws {
        let entitlements = try Entitlements.parse(
            Array(
                #"{"application-identifier":"ABCDE12345.com.example.app","com.apple.developer.associated-domains":["webcredentials:a.example","applinks:*.a.example","appclips:b.example","applinks:c.example:8443"]}"#
                    .utf8))
        let app = try AppIdentity(entitlements: entitlements)
        let sites = CrossPlatformTrustEvaluator.androidSites(explicit: [], app: app)
        #expect(sites.map(\.authority) == ["a.example", "c.example:8443"])
        let explicit = try AssetLinksSite.https(host: "z.example")
        #expect(CrossPlatformTrustEvaluator.androidSites(explicit: [explicit], app: app) == [explicit])
    }

    @Test(
        "--host takes HOST or HOST:PORT only",
        arguments: ["https://a.example", "a.example/x", "u@a.example", "", "a example"])
    func badHosts(_ text: String) {
        #expect(throws: SWCredError.self) { try AssetLinksSite.https(host: text) }
    }
}
