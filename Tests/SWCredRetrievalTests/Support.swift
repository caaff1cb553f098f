import SWCredCore
import Testing
import SWCredRetrieval
import SWCredRetrievalLive
import SWCredTLSTestServer

/// The path every direct fetch asks for.
let wellKnown = "/.well-known/apple-app-site-association"

/// A small valid association file.
let goodAASA = #"{"webcredentials":{"apps":["ABCDE12345.com.example.app"]},"applinks":{"details":[]}}"#

/// A fetcher configuration that reaches `server` as its host names on 127.0.0.1, optionally
/// trusting the server's test root as a user-installed root.
func configuration(
    for server: TLSTestServer,
    trustTestRoot: Bool = true,
    totalTimeout: Duration = .seconds(45),
    readTimeout: Duration = .seconds(30)
) -> RetrievalConfiguration {
    RetrievalConfiguration(
        connectTimeout: .seconds(15),
        readTimeout: readTimeout,
        totalTimeout: totalTimeout,
        userInstalledRootsPEM: trustTestRoot ? [server.certificateAuthority.certificatePEM] : [],
        resolveOverrides: server.hostnames.map { ResolveOverride(host: $0, port: server.port, address: "127.0.0.1") },
        cdnBaseURL: "https://cdn.test:\(server.port)/a/v1/"
    )
}

/// The request for the server's first host name on its port.
func request(
    _ server: TLSTestServer,
    route: RetrievalRoute = .wellKnownOnly,
    allowUserInstalledRoots: Bool = true
) throws -> AASAFetchRequest {
    AASAFetchRequest(
        host: try RetrievalHost(host: server.hostnames.first ?? "aasa.test", port: server.port),
        route: route,
        allowUserInstalledRoots: allowUserInstalledRoots
    )
}

/// Starts a server with `routes`, fetches once with `request`, and returns the result and the server's record.
func fetchOnce(
    routes: [String: TestRoute],
    hostnames: [String] = ["aasa.test", "cdn.test"],
    route: RetrievalRoute = .wellKnownOnly,
    trustTestRoot: Bool = true,
    allowUserInstalledRoots: Bool = true,
    totalTimeout: Duration = .seconds(45),
    readTimeout: Duration = .seconds(30)
) async throws -> (AASAFetchResult, [RecordedRequest]) {
    try await TLSTestServer.withServer(hostnames: hostnames, routes: routes) { server in
        let config = configuration(
            for: server, trustTestRoot: trustTestRoot, totalTimeout: totalTimeout, readTimeout: readTimeout)
        let result = try await LiveAssociationFileFetcher.withFetcher(configuration: config) { fetcher in
            await fetcher.fetch(try request(server, route: route, allowUserInstalledRoots: allowUserInstalledRoots))
        }
        return (result, server.requests)
    }
}

/// Expects `body` to throw an `SWCredError` with `code`.
func expectCode(
    _ code: SWCredError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) {
    do {
        try body()
        Issue.record("expected \(code.name), nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as SWCredError {
        #expect(error.code == code, "got \(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(code.name), got \(error)", sourceLocation: sourceLocation)
    }
}
