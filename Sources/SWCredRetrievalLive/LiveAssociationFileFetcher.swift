import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOSSL
import SWCredAssociation
import SWCredCore
package import SWCredRetrieval
import Synchronization

/// Fetches association files from real HTTPS servers under Apple's retrieval rules
/// (associated-domains.md §4), on one shared `HTTPClient` from async-http-client.
///
/// The rules, in the order they are checked:
/// - https only (AD-4.2): an `http` URL is refused before any connection is made;
/// - TLS against the system roots with host-name verification (AD-4.3); roots from `--ca-file`
///   count only for requests that allow user-installed roots, and the report then says so;
/// - redirects are never followed (AD-4.4, **Decision:** strict): a 3xx is refused with its `Location`;
/// - status (AD-4.5): 2xx is read; direct-route 4xx and 5xx (**Decision:** 5xx like 4xx) are
///   `HTTP` + status; a CDN 400–599 is `_SWCErrorDomain` 7 with `Apple-Failure-Reason`/`-Details`;
/// - on the origin route a 404 at `.well-known` falls back to the legacy root with a warning
///   (AD-4.1 **Decision:** only 404 falls back);
/// - size (AD-4.6): a `Content-Length` above the cap is refused before reading; otherwise the body is
///   streamed and reading stops at byte 131 073, so no more than the cap is ever kept;
/// - time: connect, read (idle) and total timeouts; the total covers the body too, so a server
///   that drips bytes is stopped (−1001);
/// - content type (AD-4.7) and signed CMS bodies (AD-3.8) are warnings only.
///
/// The rooms: this file holds the request flow (routes, the legacy fallback, redirects, the
/// user-root retry); `LiveAssociationFileFetcher+Exchange.swift` one HTTP exchange under the
/// size and time rules; `RetrievalFailure+Transport.swift` the mapping of transport errors to the
/// codes a device records; `AASAFetchReport+ContentChecks.swift` the warnings about a body.
///
/// No cookies, cache or credentials are kept (AD-4.8). Call ``shutdown()`` when done, or use
/// ``withFetcher(configuration:_:)``.
///
/// ```swift
/// let report = try await LiveAssociationFileFetcher.withFetcher(configuration: .init()) { fetcher in
///     await fetcher.fetch(AASAFetchRequest(host: try RetrievalHost(parsing: "example.com"), route: .cdn)).report
/// }
/// ```
package final class LiveAssociationFileFetcher: AssociationFileFetcher {
    /// The configuration the fetcher was made with.
    package let configuration: RetrievalConfiguration
    let client: HTTPClient
    let userRoots: [NIOSSLCertificate]
    /// Whether ``shutdown()`` ran (the client must be shut down exactly once).
    private let isShutDown = Mutex(false)

    /// The well-known path (AD-4.1).
    package static let wellKnownPath = "/.well-known/apple-app-site-association"
    /// The legacy root path, used only by the origin route after a 404 (AD-4.1).
    static let legacyRootPath = "/apple-app-site-association"

    /// Creates a fetcher and its HTTP client.
    ///
    /// - Parameter configuration: limits, timeouts, user roots and overrides.
    /// - Throws: `SWCredError.malformedInput` when a user root is not a PEM certificate;
    ///   `SWCredError.invalidParameter` for a non-https CDN base or a non-positive limit.
    package init(configuration: RetrievalConfiguration = RetrievalConfiguration()) throws {
        guard configuration.maximumBodySize > 0 else {
            throw SWCredError(.invalidParameter, "the body size cap must be positive")
        }
        guard configuration.cdnBaseURL.lowercased().hasPrefix("https://") else {
            throw SWCredError(.invalidParameter, "the CDN base URL must be https (AD-4.2)")
        }
        var roots: [NIOSSLCertificate] = []
        for pem in configuration.userInstalledRootsPEM {
            do {
                roots += try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8))
            } catch {
                throw SWCredError(.malformedInput, "the CA file holds no readable PEM certificate")
            }
        }
        if !configuration.userInstalledRootsPEM.isEmpty && roots.isEmpty {
            throw SWCredError(.malformedInput, "the CA file holds no PEM certificate")
        }
        self.userRoots = roots
        self.configuration = configuration

        var http = HTTPClient.Configuration(
            tlsConfiguration: Self.clientTLS(userRoots: []),
            redirectConfiguration: .disallow,
            timeout: HTTPClient.Configuration.Timeout(
                connect: configuration.connectTimeout.timeAmount,
                // A stalled body is cut by the read timer; never later than the total timeout.
                read: min(configuration.readTimeout, configuration.totalTimeout).timeAmount
            ),
            proxy: nil,
            // AD-4.6: the cap applies to the body after content decoding; a body that inflates past
            // it stops the decoder (a compression bomb costs no more than the cap).
            decompression: .enabled(limit: .size(configuration.maximumBodySize))
        )
        // A refused handshake is an answer, not a reason to retry until the connect timeout.
        http.connectionPool.retryConnectionEstablishment = false
        var overrides: [String: String] = [:]
        for entry in configuration.resolveOverrides { overrides[entry.host] = entry.address }
        http.dnsOverride = overrides
        self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: http)
    }

    /// Shuts the HTTP client down; later calls do nothing.
    package func shutdown() async throws {
        let first = isShutDown.withLock { done in
            defer { done = true }
            return !done
        }
        if first { try await client.shutdown() }
    }

    /// A fetcher dropped without ``shutdown()`` (a caller that forgot) still shuts its client
    /// down, in a task that keeps the client alive until it is done, instead of leaking it.
    deinit {
        let needed = isShutDown.withLock { done in
            defer { done = true }
            return !done
        }
        if needed {
            let client = self.client
            Task { try? await client.shutdown() }
        }
    }

    /// Creates a fetcher, runs `body`, and shuts the fetcher down on every path.
    package static func withFetcher<Result: Sendable>(
        configuration: RetrievalConfiguration = RetrievalConfiguration(),
        _ body: (LiveAssociationFileFetcher) async throws -> Result
    ) async throws -> Result {
        let fetcher = try LiveAssociationFileFetcher(configuration: configuration)
        do {
            let result = try await body(fetcher)
            try await fetcher.shutdown()
            return result
        } catch {
            try? await fetcher.shutdown()
            throw error
        }
    }

    /// The URL a request starts at.
    package func url(for request: AASAFetchRequest) -> String {
        switch request.route {
        case .cdn:
            let base =
                configuration.cdnBaseURL.hasSuffix("/") ? configuration.cdnBaseURL : configuration.cdnBaseURL + "/"
            return base + request.host.authority
        case .wellKnownOnly, .wellKnownThenLegacyRoot:
            return "https://\(request.host.authority)\(Self.wellKnownPath)"
        }
    }

    /// Fetches one association file under the retrieval rules.
    package func fetch(_ request: AASAFetchRequest) async -> AASAFetchResult {
        var headers: [(String, String)] = []
        if request.route == .cdn {
            headers.append(("Apple-Proxied-Domain-Name", request.host.host))
        }
        if let mismatch = resolveMismatch(for: request) {
            var report = AASAFetchReport(url: url(for: request), route: request.route)
            report.refuse(mismatch)
            return AASAFetchResult(report: report, body: nil)
        }
        let first = await fetch(
            url: url(for: request),
            route: request.route,
            allowUserInstalledRoots: request.allowUserInstalledRoots,
            headers: headers
        )
        guard request.route == .wellKnownThenLegacyRoot, first.report.failure?.domain == RetrievalFailure.httpDomain,
            first.report.status == 404
        else {
            return first
        }
        // AD-4.1 Decision: only a missing file means "look in the old place".
        var fallback = await fetch(
            url: "https://\(request.host.authority)\(Self.legacyRootPath)",
            route: request.route,
            allowUserInstalledRoots: request.allowUserInstalledRoots,
            headers: headers
        )
        fallback.report.legacyRootFallback = true
        let note = Diagnostic(
            fallback.report.accepted ? .warning : .note,
            fallback.report.accepted
                ? "\(Self.wellKnownPath) answered 404; the file was read from the legacy root \(Self.legacyRootPath), which is deprecated: serve it from .well-known"
                : "\(Self.wellKnownPath) answered 404; the legacy root \(Self.legacyRootPath) was tried too",
            rule: .ad4_1)
        fallback.report.diagnostics.insert(note, at: 0)
        return fallback
    }

    /// Fetches `url` under the retrieval rules (no fallback): the building block of ``fetch(_:)``.
    ///
    /// - Parameters:
    ///   - url: the URL; anything but `https` is refused before any connection (AD-4.2).
    ///   - route: the route, for the CDN's failure rule and the report.
    ///   - allowUserInstalledRoots: whether `--ca-file` roots may vouch for the server (AD-4.3).
    ///   - headers: extra request headers.
    /// - Returns: the report and, when every transport rule passed, the body.
    package func fetch(
        url: String,
        route: RetrievalRoute,
        allowUserInstalledRoots: Bool,
        headers: [(String, String)] = []
    ) async -> AASAFetchResult {
        var current = url
        var followed: [Diagnostic] = []
        while true {
            var result = await fetchWithoutRedirects(
                url: current,
                route: route,
                allowUserInstalledRoots: allowUserInstalledRoots,
                headers: headers
            )
            // AD-4.4 Decision: strict unless the device model is asked for; the CDN route never follows.
            guard configuration.followsRedirects, route != .cdn, result.report.redirected,
                let location = result.report.location
            else {
                if !followed.isEmpty {
                    result.report.redirected = true
                    result.report.diagnostics.insert(contentsOf: followed, at: 0)
                }
                return result
            }
            let status = result.report.status ?? 0
            guard let target = Self.resolve(location: location, against: current),
                target.lowercased().hasPrefix("https://")
            else {
                // The device: "Denying redirect … bad scheme".
                return Self.denyRedirect(
                    result, followed: followed,
                    RetrievalFailure(
                        rule: .ad4_4,
                        domain: RetrievalFailure.httpDomain,
                        code: status,
                        message:
                            "redirect \(status) to '\(location.prefix(300))' denied: bad scheme (only https targets are followed)"
                    ))
            }
            guard followed.count < configuration.maximumRedirects else {
                return Self.denyRedirect(
                    result, followed: followed,
                    RetrievalFailure(
                        rule: .ad4_4,
                        domain: RetrievalFailure.urlErrorDomain,
                        code: -1007,
                        message: "too many HTTP redirects: more than \(configuration.maximumRedirects)"
                    ))
            }
            followed.append(
                Diagnostic(
                    .warning,
                    "followed redirect \(status) from \(current.prefix(300)) to \(target.prefix(300)) (device model; Apple documents that the file must be served without redirects)",
                    rule: .ad4_4)
            )
            current = target
        }
    }

    /// `result` refused with `failure` instead of its plain "redirects are not followed" error,
    /// after the hops already followed.
    private static func denyRedirect(
        _ result: AASAFetchResult, followed: [Diagnostic], _ failure: RetrievalFailure
    ) -> AASAFetchResult {
        var result = result
        result.report.diagnostics.removeAll { $0.severity == .error && $0.rule == .ad4_4 }
        result.report.diagnostics.insert(contentsOf: followed, at: 0)
        result.report.refuse(failure)
        return result
    }

    /// One URL under the retrieval rules, a redirect being an answer (refused by AD-4.4).
    private func fetchWithoutRedirects(
        url: String,
        route: RetrievalRoute,
        allowUserInstalledRoots: Bool,
        headers: [(String, String)]
    ) async -> AASAFetchResult {
        // AD-4.2: https only, checked before anything touches the network.
        guard url.lowercased().hasPrefix("https://") else {
            var report = AASAFetchReport(url: url, route: route)
            report.refuse(
                RetrievalFailure(
                    rule: .ad4_2,
                    domain: RetrievalFailure.urlErrorDomain,
                    code: -1022,
                    message:
                        "\(url.prefix(300)) is not https: association files are only fetched over https with a valid certificate"
                )
            )
            return AASAFetchResult(report: report, body: nil)
        }
        let first = await attemptWithDeadline(url: url, route: route, headers: headers, withUserRoots: false)
        guard first.report.failure?.code == -1202, first.report.failure?.domain == RetrievalFailure.urlErrorDomain,
            !userRoots.isEmpty
        else {
            return first
        }
        guard allowUserInstalledRoots else {
            var result = first
            result.report.diagnostics.append(
                Diagnostic(
                    .note,
                    "a user-installed root was given but not used: such roots count only for developer-mode entries",
                    rule: .ad4_3)
            )
            return result
        }
        // AD-4.3: the system roots refused the chain; a user-installed root may vouch for it.
        var second = await attemptWithDeadline(url: url, route: route, headers: headers, withUserRoots: true)
        if second.report.failure == nil || second.report.failure?.code != -1202 {
            second.report.userInstalledRoot = true
            second.report.diagnostics.insert(
                Diagnostic(
                    .warning,
                    "the server's certificate is trusted only through a user-installed root (--ca-file); a device accepts that only in developer mode",
                    rule: .ad4_3),
                at: 0
            )
        }
        return second
    }
}
