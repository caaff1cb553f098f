import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// A small HTTP/1.1 server with TLS on 127.0.0.1 and an ephemeral port, for retrieval tests.
///
/// Its certificate is issued at start by a ``TestCertificateAuthority`` made at test time, for the
/// host names the test chooses (by default `aasa.test`, which resolves nowhere: clients reach the
/// server through a resolve override, as `--resolve HOST:PORT:127.0.0.1` does). Each path answers
/// with a ``TestRoute`` that the test can change while the server runs; unknown paths answer 404.
/// Every request is recorded with the body bytes sent in answer.
///
/// ```swift
/// try await TLSTestServer.withServer(routes: ["/.well-known/apple-app-site-association": .json("{}")]) { server in
///     // fetch from https://aasa.test:\(server.port)/…
/// }
/// ```
///
/// The server only ever binds loopback (127.0.0.1, or ::1 when asked). ``shutdown()`` closes the listener and every connection.
public final class TLSTestServer: Sendable {
    /// The TCP port the server listens on (on 127.0.0.1).
    public let port: Int
    /// The authority that issued the server's certificate (its PEM is what `--ca-file` gets).
    public let certificateAuthority: TestCertificateAuthority
    /// The DNS names in the server's certificate.
    public let hostnames: [String]
    /// Whether the server speaks TLS (a plain-HTTP server exists only to show that nothing reaches it).
    public let usesTLS: Bool

    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    let state: ServerState

    private init(
        port: Int,
        certificateAuthority: TestCertificateAuthority,
        hostnames: [String],
        usesTLS: Bool,
        group: MultiThreadedEventLoopGroup,
        channel: any Channel,
        state: ServerState
    ) {
        self.port = port
        self.certificateAuthority = certificateAuthority
        self.hostnames = hostnames
        self.usesTLS = usesTLS
        self.group = group
        self.channel = channel
        self.state = state
    }

    /// Starts a server on 127.0.0.1 with an ephemeral port.
    ///
    /// - Parameters:
    ///   - hostnames: DNS names for the leaf certificate.
    ///   - routes: path → answer; paths compare without the query string.
    ///   - certificateAuthority: the issuing authority; a fresh one when nil.
    ///   - leaf: a ready-made leaf (for example an expired one or one for other names); when nil
    ///     the authority issues one for `hostnames`.
    ///   - tls: false starts a plain-HTTP server instead.
    ///   - loopback: the loopback address to bind, `127.0.0.1` or `::1` (nothing else is allowed).
    /// - Returns: the running server; call ``shutdown()`` when done (or use ``withServer(hostnames:routes:tls:_:)``).
    /// - Throws: certificate, TLS or socket errors from the set-up.
    public static func start(
        hostnames: [String] = ["aasa.test"],
        routes: [String: TestRoute] = [:],
        certificateAuthority: TestCertificateAuthority? = nil,
        leaf: TestCertificateAuthority.Leaf? = nil,
        tls: Bool = true,
        loopback: String = "127.0.0.1"
    ) async throws -> TLSTestServer {
        precondition(loopback == "127.0.0.1" || loopback == "::1", "the test server binds loopback only")
        let authority = try certificateAuthority ?? TestCertificateAuthority()
        let state = ServerState(routes: routes)
        var sslContext: NIOSSLContext?
        if tls {
            let issued = try leaf ?? authority.issueLeaf(dnsNames: hostnames)
            let certificate = try NIOSSLCertificate(bytes: Array(issued.certificatePEM.utf8), format: .pem)
            let key = try NIOSSLPrivateKey(bytes: Array(issued.privateKeyPEM.utf8), format: .pem)
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: [.certificate(certificate)],
                privateKey: .privateKey(key)
            )
            configuration.applicationProtocols = ["http/1.1"]
            sslContext = try NIOSSLContext(configuration: configuration)
        }
        let context = sslContext
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let context {
                        try pipeline.addHandler(NIOSSLServerHandler(context: context))
                    }
                    try pipeline.configureHTTPServerPipeline(withErrorHandling: true)
                    try pipeline.addHandler(RouteHandler(state: state))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: loopback, port: 0).get()
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            try? await group.shutdownGracefully()
            throw TestServerError("the listening socket has no port")
        }
        return TLSTestServer(
            port: port,
            certificateAuthority: authority,
            hostnames: hostnames,
            usesTLS: tls,
            group: group,
            channel: channel,
            state: state
        )
    }

    /// Starts a server, runs `body` with it, and shuts it down on every path.
    public static func withServer<Result: Sendable>(
        hostnames: [String] = ["aasa.test"],
        routes: [String: TestRoute] = [:],
        tls: Bool = true,
        _ body: (TLSTestServer) async throws -> Result
    ) async throws -> Result {
        let server = try await start(hostnames: hostnames, routes: routes, tls: tls)
        do {
            let result = try await body(server)
            try await server.shutdown()
            return result
        } catch {
            try? await server.shutdown()
            throw error
        }
    }

    /// Sets (or replaces) the answer for `path`.
    public func setRoute(_ path: String, _ route: TestRoute) {
        state.setRoute(path, route)
    }

    /// Every request received so far, in arrival order.
    public var requests: [RecordedRequest] { state.recordedRequests }

    /// `https://<hostnames[0]>:<port>` (or `http://` for a plain server).
    public var origin: String { "\(usesTLS ? "https" : "http")://\(hostnames.first ?? "localhost"):\(port)" }

    /// `HOST:PORT:127.0.0.1`, the `--resolve` argument that reaches this server as `host`.
    public func resolveArgument(for host: String? = nil) -> String {
        "\(host ?? hostnames.first ?? "localhost"):\(port):127.0.0.1"
    }

    /// Waits until the body writes of the request at `index` have stopped (the response ended or
    /// the client went away), polling the recorded state; gives up after `timeout`.
    public func waitForResponseEnd(index: Int, timeout: Duration = .seconds(10)) async throws -> RecordedRequest? {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if let request = state.finishedRequest(at: index) { return request }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// Closes the listener and every connection, then stops the server's thread.
    public func shutdown() async throws {
        try? await channel.close()
        try await group.shutdownGracefully()
    }
}

/// A failure inside the test server's own setup.
public struct TestServerError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Routes and recorded requests, shared by the server's connections.
///
/// `@unchecked Sendable`: every stored property is read and written only under `lock`.
final class ServerState: @unchecked Sendable {
    private let lock = NSLock()
    private var routes: [String: TestRoute]
    private var requests: [RecordedRequest] = []
    private var finished: Set<Int> = []

    init(routes: [String: TestRoute]) {
        self.routes = routes
    }

    func setRoute(_ path: String, _ route: TestRoute) {
        lock.withLock { routes[path] = route }
    }

    func route(for path: String) -> TestRoute? {
        lock.withLock { routes[path] }
    }

    var recordedRequests: [RecordedRequest] {
        lock.withLock { requests }
    }

    func record(_ request: RecordedRequest) -> Int {
        lock.withLock {
            requests.append(request)
            return requests.count - 1
        }
    }

    func addBytesSent(_ count: Int, at index: Int) {
        lock.withLock { requests[index].bytesSent += count }
    }

    /// Marks the answer at `index` as ended; only the first call counts.
    func finish(at index: Int, clientClosed: Bool) {
        lock.withLock {
            guard !finished.contains(index) else { return }
            requests[index].clientClosed = clientClosed
            finished.insert(index)
        }
    }

    func finishedRequest(at index: Int) -> RecordedRequest? {
        lock.withLock { finished.contains(index) ? requests[index] : nil }
    }
}
