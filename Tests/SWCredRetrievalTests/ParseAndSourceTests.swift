import Foundation
import SWCredAssociation
import SWCredCore
import SWCredRetrieval
import SWCredRetrievalLive
import SWCredTLSTestServer
import Testing

@Suite("Parsing fetched files and the live association sources")
struct ParseAndSourceTests {
    @Test(
        "AD-4.9: malformed JSON is refused with a parse diagnostic (NSCocoaErrorDomain 3840)",
        arguments: [
            #"{"webcredentials": {"apps": ["A.b"]"#, "not json", #"{"a":1,}"#, "",
        ])
    func malformedRefused(body: String) async throws {
        var (result, _) = try await fetchOnce(routes: [wellKnown: .json(body)])
        #expect(result.report.accepted)  // the transport rules passed
        let file = result.parse()
        #expect(file == nil)
        #expect(!result.report.accepted)
        #expect(result.report.failure?.rule == .ad4_9)
        #expect(result.report.failure?.domain == "NSCocoaErrorDomain")
        #expect(result.report.failure?.code == 3840)
        #expect(result.report.diagnostics.contains { $0.rule == .ad4_9 && $0.severity == .error })
    }

    @Test("AD-4.9: deeply nested JSON is refused by the depth limit, not by a crash")
    func deeplyNested() async throws {
        let depth = 10_000
        let body = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        var (result, _) = try await fetchOnce(routes: [wellKnown: .json(body)])
        #expect(result.parse() == nil)
        #expect(result.report.failure?.rule == .ad4_9)
        #expect(result.report.failure?.code == 3840)
    }

    @Test("AD-3.1: a top level that is not an object is a parse failure")
    func topLevelArray() async throws {
        var (result, _) = try await fetchOnce(routes: [wellKnown: .json(#"["webcredentials"]"#)])
        #expect(result.parse() == nil)
        #expect(result.report.failure?.code == 3840)
    }

    @Test("AD-3.9: a byte-order mark and duplicate keys parse, with warnings")
    func bomAndDuplicates() async throws {
        let body: [UInt8] =
            [0xEF, 0xBB, 0xBF] + Array(#"{"webcredentials":{"apps":[]},"webcredentials":{"apps":["A.b"]}}"#.utf8)
        var (result, _) = try await fetchOnce(routes: [wellKnown: .bytes(body)])
        let file = result.parse()
        #expect(file?.lists(appID: "A.b", for: .webcredentials) == true)
        #expect(result.report.accepted)
        #expect(result.report.diagnostics.filter { $0.rule == .ad3_9 }.count == 2)
    }

    @Test("AD-4.1: the cdn source sends plain entries to the CDN and mode entries to .well-known only")
    func cdnSourceRoutes() async throws {
        try await TLSTestServer.withServer(hostnames: ["aasa.test", "cdn.test"]) { server in
            server.setRoute("/a/v1/aasa.test:\(server.port)", .json(goodAASA))
            server.setRoute(wellKnown, .json(goodAASA))
            try await LiveAssociationFileFetcher.withFetcher(configuration: configuration(for: server)) { fetcher in
                let source = try LiveAssociationSource(
                    kind: .cdn,
                    fetcher: fetcher,
                    device: DeviceSettings(developerMode: true),
                    userRoots: .always
                )
                let plain = try await source.retrieve(AssociationFileRequest(host: "aasa.test", port: server.port))
                #expect(plain.body == Array(goodAASA.utf8))
                #expect(plain.source == .cdn)
                #expect(plain.fetch?.url.contains("/a/v1/aasa.test:") == true)
                #expect(plain.usedUserInstalledRoot)
                let mode = try await source.retrieve(
                    AssociationFileRequest(host: "aasa.test", port: server.port, route: .modeDirect)
                )
                #expect(mode.body != nil)
                #expect(mode.fetch?.url.hasSuffix(wellKnown) == true)
            }
            #expect(server.requests.map(\.uri) == ["/a/v1/aasa.test:\(server.port)", wellKnown])
        }
    }

    @Test("AD-4.1: the direct source falls back to the legacy root for plain entries, never for mode entries")
    func directSourceFallback() async throws {
        try await TLSTestServer.withServer(hostnames: ["aasa.test"]) { server in
            server.setRoute("/apple-app-site-association", .json(goodAASA))
            try await LiveAssociationFileFetcher.withFetcher(configuration: configuration(for: server)) { fetcher in
                let source = try LiveAssociationSource(kind: .direct, fetcher: fetcher, userRoots: .always)
                let plain = try await source.retrieve(AssociationFileRequest(host: "aasa.test", port: server.port))
                #expect(plain.body != nil)
                #expect(plain.diagnostics.contains { $0.severity == .warning && $0.message.hasPrefix("AD-4.1:") })
                let mode = try await source.retrieve(
                    AssociationFileRequest(host: "aasa.test", port: server.port, route: .modeDirect)
                )
                #expect(mode.body == nil)
                #expect(mode.failure?.domain == "HTTP")
                #expect(mode.failure?.code == 404)
            }
        }
    }

    @Test("AD-4.3: with the default policy user roots count only for developer entries in developer mode")
    func developerRootPolicy() async throws {
        try await TLSTestServer.withServer(hostnames: ["aasa.test"], routes: [wellKnown: .json(goodAASA)]) { server in
            try await LiveAssociationFileFetcher.withFetcher(configuration: configuration(for: server)) { fetcher in
                let developer = try LiveAssociationSource(
                    kind: .direct, fetcher: fetcher, device: DeviceSettings(developerMode: true))
                let plainRequest = AssociationFileRequest(host: "aasa.test", port: server.port)
                let modeRequest = AssociationFileRequest(host: "aasa.test", port: server.port, route: .modeDirect)
                let plain = try await developer.retrieve(plainRequest)
                #expect(plain.body == nil)
                #expect(plain.failure?.code == -1202)
                let mode = try await developer.retrieve(modeRequest)
                #expect(mode.body != nil)
                #expect(mode.usedUserInstalledRoot)
                let notDeveloper = try LiveAssociationSource(
                    kind: .direct, fetcher: fetcher, device: DeviceSettings(developerMode: false))
                let refused = try await notDeveloper.retrieve(modeRequest)
                #expect(refused.failure?.code == -1202)
            }
        }
    }

    @Test("AD-6.1: TrustEvaluator over the live direct source trusts an app the site lists, not one it omits")
    func trustOverLiveSource() async throws {
        try await TLSTestServer.withServer(hostnames: ["aasa.test"], routes: [wellKnown: .json(goodAASA)]) { server in
            try await LiveAssociationFileFetcher.withFetcher(configuration: configuration(for: server)) { fetcher in
                let source = try LiveAssociationSource(kind: .direct, fetcher: fetcher, userRoots: .always)
                let evaluator = TrustEvaluator(source: source)
                let listed = try AppIdentity(
                    entitlements: Entitlements(
                        applicationIdentifier: "ABCDE12345.com.example.app",
                        associatedDomains: ["webcredentials:aasa.test:\(server.port)"]
                    )
                )
                let report = await evaluator.evaluate(app: listed)
                #expect(report.trusted)
                #expect(report.associations.first?.source == .direct)
                #expect(report.associations.first?.fetch?.status == 200)
                let other = try AppIdentity(
                    entitlements: Entitlements(
                        applicationIdentifier: "ZZZZZ99999.com.example.other",
                        associatedDomains: ["webcredentials:aasa.test:\(server.port)"]
                    )
                )
                #expect(await evaluator.evaluate(app: other).trusted == false)
            }
        }
    }

    @Test("A dir kind is not a live source")
    func dirIsNotLive() throws {
        let fetcher = try LiveAssociationFileFetcher()
        defer { Task { try? await fetcher.shutdown() } }
        expectCode(.invalidParameter) { _ = try LiveAssociationSource(kind: .dir, fetcher: fetcher) }
    }

    @Test("Command-line configuration: CA file, --resolve and timeouts")
    func commandLineConfiguration() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swcred-retrieval-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let authority = try TestCertificateAuthority()
        let ca = directory.appendingPathComponent("ca.pem")
        try authority.writeCertificatePEM(to: ca)
        let config = try RetrievalConfiguration(
            caFile: ca.path, resolve: ["aasa.test:8443:127.0.0.1"], totalTimeout: 1.5)
        #expect(config.userInstalledRootsPEM == [authority.certificatePEM])
        #expect(config.resolveOverrides == [ResolveOverride(host: "aasa.test", port: 8443, address: "127.0.0.1")])
        #expect(config.totalTimeout == .milliseconds(1500))
        expectCode(.fileNotFound) {
            _ = try RetrievalConfiguration(caFile: directory.appendingPathComponent("missing.pem").path, resolve: [])
        }
        expectCode(.usage) { _ = try RetrievalConfiguration(caFile: nil, resolve: [], totalTimeout: 0) }
        expectCode(.usage) { _ = try RetrievalConfiguration(caFile: nil, resolve: [], totalTimeout: .nan) }
    }
}
