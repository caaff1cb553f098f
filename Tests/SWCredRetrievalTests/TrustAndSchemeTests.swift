import SWCredAssociation
import Foundation
import SWCredCore
import SWCredRetrieval
import SWCredRetrievalLive
import SWCredTLSTestServer
import Testing

@Suite("https only and TLS trust")
struct TrustAndSchemeTests {
    @Test("AD-4.2: an http URL is refused before any connection is made")
    func httpRefused() async throws {
        try await TLSTestServer.withServer(hostnames: ["aasa.test"], routes: [wellKnown: .json(goodAASA)], tls: false) {
            server in
            let result = try await LiveAssociationFileFetcher.withFetcher(configuration: RetrievalConfiguration()) {
                await $0.fetch(
                    url: "http://127.0.0.1:\(server.port)\(wellKnown)", route: .wellKnownOnly, allowUserInstalledRoots: true)
            }
            #expect(!result.report.accepted)
            #expect(result.report.failure?.rule == .ad4_2)
            #expect(result.report.status == nil)
            // The plain server, which would have answered, never saw a request.
            #expect(server.requests.isEmpty)
        }
    }

    @Test("AD-4.2: the CDN base URL must be https")
    func cdnBaseMustBeHTTPS() {
        expectCode(.invalidParameter) {
            _ = try LiveAssociationFileFetcher(
                configuration: RetrievalConfiguration(cdnBaseURL: "http://cdn.test/a/v1/"))
        }
    }

    @Test("AD-4.3: a certificate from an unknown root is refused (-1202) without user roots")
    func untrustedWithoutCAFile() async throws {
        let (result, _) = try await fetchOnce(routes: [wellKnown: .json(goodAASA)], trustTestRoot: false)
        #expect(!result.report.accepted)
        #expect(result.report.failure?.rule == .ad4_3)
        #expect(result.report.failure?.domain == "NSURLErrorDomain")
        #expect(result.report.failure?.code == -1202)
        #expect(result.report.userInstalledRoot == false)
    }

    @Test("AD-4.3: the same server is accepted with the root as a user-installed root, and flagged")
    func trustedWithCAFile() async throws {
        let (result, _) = try await fetchOnce(routes: [wellKnown: .json(goodAASA)], trustTestRoot: true)
        #expect(result.report.accepted)
        #expect(result.report.userInstalledRoot)
        #expect(result.report.diagnostics.contains { $0.rule == .ad4_3 && $0.severity == .warning })
    }

    @Test("AD-4.3: user-installed roots are not used when the request does not allow them")
    func userRootsOnlyWhenAllowed() async throws {
        let (result, requests) = try await fetchOnce(
            routes: [wellKnown: .json(goodAASA)],
            trustTestRoot: true,
            allowUserInstalledRoots: false
        )
        #expect(!result.report.accepted)
        #expect(result.report.failure?.code == -1202)
        #expect(result.report.diagnostics.contains { $0.rule == .ad4_3 && $0.severity == .note })
        #expect(requests.isEmpty)
    }

    @Test("AD-4.3: a certificate for another host name is refused even with the root trusted")
    func wrongHostName() async throws {
        let authority = try TestCertificateAuthority()
        let leaf = try authority.issueLeaf(dnsNames: ["other.test"])
        let server = try await TLSTestServer.start(
            hostnames: ["aasa.test"],
            routes: [wellKnown: .json(goodAASA)],
            certificateAuthority: authority,
            leaf: leaf
        )
        do {
            let result = try await LiveAssociationFileFetcher.withFetcher(configuration: configuration(for: server)) {
                await $0.fetch(try request(server))
            }
            #expect(!result.report.accepted)
            #expect(result.report.failure?.code == -1202)
            #expect(server.requests.isEmpty)
            try await server.shutdown()
        } catch {
            try? await server.shutdown()
            throw error
        }
    }

    @Test("AD-4.3: an expired leaf is refused")
    func expiredLeaf() async throws {
        let authority = try TestCertificateAuthority()
        let leaf = try authority.issueLeaf(dnsNames: ["aasa.test"], validFor: -7200)
        let server = try await TLSTestServer.start(
            hostnames: ["aasa.test"],
            routes: [wellKnown: .json(goodAASA)],
            certificateAuthority: authority,
            leaf: leaf
        )
        do {
            let result = try await LiveAssociationFileFetcher.withFetcher(configuration: configuration(for: server)) {
                await $0.fetch(try request(server))
            }
            #expect(!result.report.accepted)
            #expect(result.report.failure?.rule == .ad4_3)
            try await server.shutdown()
        } catch {
            try? await server.shutdown()
            throw error
        }
    }

    @Test("AD-4.8: nothing listening is a connection failure, not a hang")
    func nothingListening() async throws {
        // Start and stop a server to get a port that is now closed.
        let server = try await TLSTestServer.start(hostnames: ["aasa.test"])
        let port = server.port
        let config = configuration(for: server)
        try await server.shutdown()
        let result = try await LiveAssociationFileFetcher.withFetcher(configuration: config) {
            await $0.fetch(AASAFetchRequest(host: try RetrievalHost(host: "aasa.test", port: port), route: .wellKnownOnly))
        }
        #expect(!result.report.accepted)
        #expect(result.report.failure?.isNetworkFailure == true)
        // NSURLErrorCannotConnectToHost, as a device reports a refused connection.
        #expect(result.report.failure?.code == -1004)
    }

    @Test("AD-4.8: a host name that does not resolve is -1003 (cannot find host), not -1004")
    func unresolvableHost() async throws {
        // RFC 6761: names under .invalid never resolve.
        let result = try await LiveAssociationFileFetcher.withFetcher(configuration: RetrievalConfiguration()) {
            await $0.fetch(AASAFetchRequest(host: try RetrievalHost(host: "swcred-test.invalid", port: nil), route: .wellKnownOnly))
        }
        #expect(!result.report.accepted)
        #expect(result.report.failure?.isNetworkFailure == true)
        #expect(result.report.failure?.code == -1003, "\(String(describing: result.report.failure))")
        #expect(result.report.failure?.message.hasPrefix("A server with the specified hostname could not be found") == true)
    }

    @Test(
        "--resolve HOST:PORT:[::1] reaches an IPv6 loopback server, with SNI and the certificate check on the host name",
        .enabled(if: ipv6LoopbackAvailable, "no IPv6 loopback on this machine"))
    func resolveToIPv6() async throws {
        let server = try await TLSTestServer.start(
            hostnames: ["aasa.test"], routes: [wellKnown: .json(goodAASA)], loopback: "::1")
        do {
            let override = try ResolveOverride(parsing: "aasa.test:\(server.port):[::1]")
            #expect(override.address == "::1")
            let config = RetrievalConfiguration(
                userInstalledRootsPEM: [server.certificateAuthority.certificatePEM], resolveOverrides: [override])
            let result = try await LiveAssociationFileFetcher.withFetcher(configuration: config) {
                await $0.fetch(try request(server))
            }
            #expect(result.report.accepted, "\(result.report)")
            #expect(server.requests.first?.host?.hasPrefix("aasa.test") == true)
            try await server.shutdown()
        } catch {
            try? await server.shutdown()
            throw error
        }
    }

    @Test("--resolve for another port is refused instead of connecting to the wrong place")
    func resolvePortMismatch() async throws {
        let config = RetrievalConfiguration(resolveOverrides: [
            ResolveOverride(host: "aasa.test", port: 8443, address: "127.0.0.1")
        ])
        let result = try await LiveAssociationFileFetcher.withFetcher(configuration: config) {
            await $0.fetch(AASAFetchRequest(host: try RetrievalHost(host: "aasa.test", port: 9443), route: .wellKnownOnly))
        }
        #expect(!result.report.accepted)
        #expect(result.report.failure?.message.contains("--resolve") == true)
    }

    @Test("A CA file with no certificate is malformed input")
    func badCAFile() {
        expectCode(.malformedInput) {
            _ = try LiveAssociationFileFetcher(
                configuration: RetrievalConfiguration(userInstalledRootsPEM: ["not a pem"]))
        }
    }
}

@Suite("Hosts and --resolve arguments")
struct HostParsingTests {
    @Test("Hosts are lowercased, one trailing dot dropped, 443 omitted")
    func normalised() throws {
        #expect(try RetrievalHost(parsing: "Example.COM.").authority == "example.com")
        #expect(try RetrievalHost(parsing: "example.com:443").authority == "example.com")
        #expect(try RetrievalHost(parsing: "example.com:8443").authority == "example.com:8443")
        #expect(try RetrievalHost(parsing: "xn--bcher-kva.example").host == "xn--bcher-kva.example")
    }

    @Test(
        "Hosts that could change the URL are refused",
        arguments: [
            "", "evil.com/x", "a b.com", "bücher.example", "example.com:0", "example.com:70000", "example.com:x",
            "user@example.com", "a..b", ".a", "[::1]", "example.com:1:2", "a?b", "a#b",
        ])
    func refused(text: String) {
        expectCode(.invalidParameter) { _ = try RetrievalHost(parsing: text) }
    }

    @Test("--resolve HOST:PORT:ADDR parses like curl")
    func resolveParses() throws {
        let entry = try ResolveOverride(parsing: "AASA.test:8443:127.0.0.1")
        #expect(entry == ResolveOverride(host: "aasa.test", port: 8443, address: "127.0.0.1"))
        #expect(try ResolveOverride(parsing: "aasa.test:443:[::1]").address == "::1")
    }

    @Test(
        "--resolve rejects malformed values",
        arguments: [
            "aasa.test", "aasa.test:443", ":443:1.2.3.4", "aasa.test:0:1.2.3.4", "aasa.test:x:1.2.3.4",
            "aasa.test:443:", "aasa.test:443:1.2.3.4/x",
        ])
    func resolveRejects(text: String) {
        expectCode(.usage) { _ = try ResolveOverride(parsing: text) }
    }
}

@Suite("Fetcher lifecycle")
struct FetcherLifecycleTests {
    @Test("shutdown is idempotent, and a fetcher dropped without it shuts its client down instead of trapping")
    func lifecycle() async throws {
        try await TLSTestServer.withServer(hostnames: ["aasa.test"], routes: [wellKnown: .json(goodAASA)]) { server in
            let fetcher = try LiveAssociationFileFetcher(configuration: configuration(for: server))
            #expect(await fetcher.fetch(try request(server)).report.accepted)
            try await fetcher.shutdown()
            try await fetcher.shutdown()

            // AsyncHTTPClient traps in debug builds when a client is released while running.
            var dropped: LiveAssociationFileFetcher? = try LiveAssociationFileFetcher(
                configuration: configuration(for: server))
            #expect(await dropped?.fetch(try request(server)).report.accepted == true)
            dropped = nil
            #expect(dropped == nil)
            try await Task.sleep(for: .milliseconds(300))
        }
    }
}

/// Whether this machine has the IPv6 loopback address (containers sometimes run without IPv6).
let ipv6LoopbackAvailable: Bool = {
    guard let table = try? String(contentsOfFile: "/proc/net/if_inet6", encoding: .utf8) else { return false }
    return table.split(separator: "\n").contains { $0.hasPrefix("00000000000000000000000000000001") }
}()
