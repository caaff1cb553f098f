import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOSSL
import SWCredCore
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
/// No cookies, cache or credentials are kept (AD-4.8). Call ``shutdown()`` when done, or use
/// ``withFetcher(configuration:_:)``.
///
/// ```swift
/// let report = try await LiveAssociationFileFetcher.withFetcher(configuration: .init()) { fetcher in
///     await fetcher.fetch(AASAFetchRequest(host: try RetrievalHost(parsing: "example.com"), route: .cdn)).report
/// }
/// ```
public final class LiveAssociationFileFetcher: AssociationFileFetcher {
    /// The configuration the fetcher was made with.
    public let configuration: RetrievalConfiguration
    private let client: HTTPClient
    private let userRoots: [NIOSSLCertificate]
    /// Whether ``shutdown()`` ran (the client must be shut down exactly once).
    private let isShutDown = Mutex(false)

    /// The well-known path (AD-4.1).
    public static let wellKnownPath = "/.well-known/apple-app-site-association"
    /// The legacy root path, used only by the origin route after a 404 (AD-4.1).
    public static let legacyRootPath = "/apple-app-site-association"

    /// Creates a fetcher and its HTTP client.
    ///
    /// - Parameter configuration: limits, timeouts, user roots and overrides.
    /// - Throws: `SWCredError.malformedInput` when a user root is not a PEM certificate;
    ///   `SWCredError.invalidParameter` for a non-https CDN base or a non-positive limit.
    public init(configuration: RetrievalConfiguration = RetrievalConfiguration()) throws {
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
    public func shutdown() async throws {
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
    public static func withFetcher<Result: Sendable>(
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
    public func url(for request: AASAFetchRequest) -> String {
        switch request.route {
        case .cdn:
            let base =
                configuration.cdnBaseURL.hasSuffix("/") ? configuration.cdnBaseURL : configuration.cdnBaseURL + "/"
            return base + request.host.authority
        case .direct, .origin:
            return "https://\(request.host.authority)\(Self.wellKnownPath)"
        }
    }

    /// Fetches one association file under the retrieval rules.
    public func fetch(_ request: AASAFetchRequest) async -> AASAFetchResult {
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
        guard request.route == .origin, first.report.failure?.domain == RetrievalFailure.httpDomain,
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
        let note = RetrievalDiagnostic(
            rule: "AD-4.1",
            severity: fallback.report.accepted ? .warning : .note,
            message: fallback.report.accepted
                ? "\(Self.wellKnownPath) answered 404; the file was read from the legacy root \(Self.legacyRootPath), which is deprecated: serve it from .well-known"
                : "\(Self.wellKnownPath) answered 404; the legacy root \(Self.legacyRootPath) was tried too"
        )
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
    public func fetch(
        url: String,
        route: RetrievalRoute,
        allowUserInstalledRoots: Bool,
        headers: [(String, String)] = []
    ) async -> AASAFetchResult {
        var current = url
        var followed: [RetrievalDiagnostic] = []
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
                        rule: "AD-4.4",
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
                        rule: "AD-4.4",
                        domain: RetrievalFailure.urlErrorDomain,
                        code: -1007,
                        message: "too many HTTP redirects: more than \(configuration.maximumRedirects)"
                    ))
            }
            followed.append(
                RetrievalDiagnostic(
                    rule: "AD-4.4",
                    severity: .warning,
                    message:
                        "followed redirect \(status) from \(current.prefix(300)) to \(target.prefix(300)) (device model; Apple documents that the file must be served without redirects)"
                )
            )
            current = target
        }
    }

    /// `result` refused with `failure` instead of its plain "redirects are not followed" error,
    /// after the hops already followed.
    private static func denyRedirect(
        _ result: AASAFetchResult, followed: [RetrievalDiagnostic], _ failure: RetrievalFailure
    ) -> AASAFetchResult {
        var result = result
        result.report.diagnostics.removeAll { $0.severity == .error && $0.rule == "AD-4.4" }
        result.report.diagnostics.insert(contentsOf: followed, at: 0)
        result.report.refuse(failure)
        return result
    }

    /// `location` made absolute against `base` (RFC 3986 reference resolution), or nil.
    static func resolve(location: String, against base: String) -> String? {
        guard location.utf8.count <= 2048, let baseURL = URL(string: base),
            let resolved = URL(string: location, relativeTo: baseURL)?.absoluteURL
        else { return nil }
        return resolved.absoluteString
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
                    rule: "AD-4.2",
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
                RetrievalDiagnostic(
                    rule: "AD-4.3",
                    severity: .note,
                    message:
                        "a user-installed root was given but not used: such roots count only for developer-mode entries"
                )
            )
            return result
        }
        // AD-4.3: the system roots refused the chain; a user-installed root may vouch for it.
        var second = await attemptWithDeadline(url: url, route: route, headers: headers, withUserRoots: true)
        if second.report.failure == nil || second.report.failure?.code != -1202 {
            second.report.userInstalledRoot = true
            second.report.diagnostics.insert(
                RetrievalDiagnostic(
                    rule: "AD-4.3",
                    severity: .warning,
                    message:
                        "the server's certificate is trusted only through a user-installed root (--ca-file); a device accepts that only in developer mode"
                ),
                at: 0
            )
        }
        return second
    }

    // MARK: - One exchange

    /// Runs one exchange and a timer for the total timeout; whichever ends first decides.
    private func attemptWithDeadline(
        url: String,
        route: RetrievalRoute,
        headers: [(String, String)],
        withUserRoots: Bool
    ) async -> AASAFetchResult {
        let total = configuration.totalTimeout
        return await withTaskGroup(of: AASAFetchResult?.self) { group in
            group.addTask {
                await self.attempt(url: url, route: route, headers: headers, withUserRoots: withUserRoots)
            }
            group.addTask {
                do {
                    try await Task.sleep(for: total)
                } catch {
                    return nil
                }
                return nil
            }
            var outcome: AASAFetchResult?
            // The first child to finish: the exchange (a result) or the timer (nil).
            if let first = await group.next() {
                outcome = first
            }
            group.cancelAll()
            if outcome == nil {
                var report = AASAFetchReport(url: url, route: route)
                report.refuse(Self.timedOut(url: url, what: "the whole exchange took longer than \(total.secondsText)"))
                outcome = AASAFetchResult(report: report, body: nil)
            }
            // Let the cancelled child finish so no request outlives this call.
            while await group.next() != nil {}
            return outcome ?? AASAFetchResult(report: AASAFetchReport(url: url, route: route), body: nil)
        }
    }

    private func attempt(
        url: String,
        route: RetrievalRoute,
        headers: [(String, String)],
        withUserRoots: Bool
    ) async -> AASAFetchResult {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: configuration.totalTimeout)
        var report = AASAFetchReport(url: url, route: route)
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        request.headers.add(name: "Accept", value: "application/json")
        // A device's URL session asks for compressed bodies and decodes them; swcred asks for the
        // codings it can decode (gzip, deflate) so that a server's compression is checked too.
        request.headers.add(name: "Accept-Encoding", value: Self.acceptedEncodings)
        request.headers.add(name: "User-Agent", value: "swcred (AASA retrieval)")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if withUserRoots {
            request.tlsConfiguration = Self.clientTLS(userRoots: userRoots)
        }
        let cap = configuration.maximumBodySize
        do {
            let response = try await client.execute(request, deadline: .now() + configuration.totalTimeout.timeAmount)
            let status = Int(response.status.code)
            report.status = status
            report.contentType = response.headers.first(name: "content-type")
            report.pass("AD-4.2", "the URL is https")
            if !withUserRoots {
                report.pass("AD-4.3", "the certificate chain is trusted by the system roots and names the host")
            }

            // AD-4.4: redirects are refused and reported with their target.
            if (300..<400).contains(status) {
                let location = response.headers.first(name: "location")
                report.redirected = true
                report.location = location
                var message =
                    "the server answered \(status) (redirect) to \(location.map { "'\($0.prefix(500))'" } ?? "no Location"); redirects are not followed: serve the file at this URL with status 200"
                if let location, location.lowercased().hasPrefix("http:") {
                    message += "; the target is not even https (AD-4.2)"
                }
                report.refuse(
                    RetrievalFailure(
                        rule: "AD-4.4", domain: RetrievalFailure.httpDomain, code: status, message: message))
                return AASAFetchResult(report: report, body: nil)
            }
            // AD-4.1 (CDN) and AD-4.5: error statuses.
            guard (200..<300).contains(status) else {
                if route == .cdn, (400...599).contains(status) {
                    let reason = response.headers.first(name: "apple-failure-reason") ?? "none"
                    let details = response.headers.first(name: "apple-failure-details") ?? "none"
                    report.refuse(
                        RetrievalFailure(
                            rule: "AD-4.1",
                            domain: RetrievalFailure.swcErrorDomain,
                            code: 7,
                            message:
                                "the CDN answered \(status); Apple-Failure-Reason: \(reason.prefix(300)); Apple-Failure-Details: \(details.prefix(300))"
                        )
                    )
                } else {
                    let meaning =
                        status == 403 || status == 404
                        ? "access was denied or the file is missing; it must be reachable from any address and any User-Agent"
                        : (status >= 500 ? "a server error is treated like a 4xx" : "the file was not served")
                    report.refuse(
                        RetrievalFailure(
                            rule: "AD-4.5",
                            domain: RetrievalFailure.httpDomain,
                            code: status,
                            message: "the server answered \(status): \(meaning)"
                        )
                    )
                }
                return AASAFetchResult(report: report, body: nil)
            }
            report.pass("AD-4.4", "no redirect")
            report.pass("AD-4.5", "status \(status)")
            // AD-4.6: an announced length over the cap is refused before reading a byte (for an
            // encoded body the length is of the encoded bytes, so only the decoded count decides).
            let encoding = response.headers.first(name: "content-encoding")?.trimmingCharacters(in: .whitespaces)
                .lowercased()
            let decoded = encoding == "gzip" || encoding == "x-gzip" || encoding == "deflate"
            if encoding == nil || encoding == "identity",
                let announced = response.headers.first(name: "content-length").flatMap({ Int($0) }), announced > cap
            {
                report.refuse(Self.tooLarge(cap: cap, detail: "Content-Length announces \(announced) bytes"))
                return AASAFetchResult(report: report, body: nil)
            }
            // AD-4.6: stream the body; stop as soon as byte cap + 1 arrives.
            var body: [UInt8] = []
            body.reserveCapacity(min(cap, 16_384))
            var received = 0
            for try await chunk in response.body {
                // AD-4.8: the total timeout covers the body. A server that keeps dripping bytes is
                // stopped here, at the first piece after the deadline, whether or not the task
                // cancellation by the timer has reached the body stream yet.
                if clock.now >= deadline {
                    report.bytes = received
                    report.refuse(
                        Self.timedOut(
                            url: url,
                            what: "the whole exchange took longer than \(configuration.totalTimeout.secondsText)")
                    )
                    return AASAFetchResult(report: report, body: nil)
                }
                let count = chunk.readableBytes
                if received + count > cap {
                    received = cap + 1
                    report.bytes = received
                    report.refuse(Self.tooLarge(cap: cap, detail: "byte \(cap + 1) arrived; reading stopped there"))
                    return AASAFetchResult(report: report, body: nil)
                }
                chunk.withUnsafeReadableBytes { body.append(contentsOf: $0) }
                received += count
            }
            report.bytes = received
            report.pass("AD-4.6", "\(received) bytes, within the \(cap)-byte cap")
            report.pass("AD-4.8", "answered within the timeouts")
            if decoded, let encoding {
                report.pass("AD-4.6", "Content-Encoding \(encoding) decoded; the cap counted the decoded bytes")
            } else if let encoding, encoding != "identity" {
                report.diagnostics.append(
                    RetrievalDiagnostic(
                        rule: "AD-4.6",
                        severity: .warning,
                        message:
                            "the server sent Content-Encoding '\(encoding.prefix(100))', which was not asked for (\(Self.acceptedEncodings)); the cap and the parse apply to the bytes as received"
                    )
                )
            }
            Self.addContentWarnings(to: &report, body: body)
            report.accepted = true
            return AASAFetchResult(report: report, body: body)
        } catch let decoding as NIOHTTPDecompression.DecompressionError where decoding == .limit {
            report.bytes = cap + 1
            report.refuse(Self.tooLarge(cap: cap, detail: "the body inflated past the cap while being decoded; decoding stopped there"))
            return AASAFetchResult(report: report, body: nil)
        } catch {
            report.refuse(Self.classify(error, url: url))
            return AASAFetchResult(report: report, body: nil)
        }
    }

    /// TLS for fetches: system roots (plus `userRoots`), host-name verification on.
    ///
    /// The TLS close waits only briefly for the server's `close_notify`: a connection dropped
    /// at the size cap belongs to a server that is still sending and would not answer, and
    /// nothing more is read from it anyway.
    static func clientTLS(userRoots: [NIOSSLCertificate]) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .fullVerification
        if !userRoots.isEmpty { tls.additionalTrustRoots = [.certificates(userRoots)] }
        tls.shutdownTimeout = .milliseconds(200)
        return tls
    }

    // MARK: - Rules that only warn

    /// AD-4.7 content type and AD-3.8 signed bodies.
    static func addContentWarnings(to report: inout AASAFetchReport, body: [UInt8]) {
        let signed = CMSDetector.isSignedData(body)
        if signed {
            report.diagnostics.append(
                RetrievalDiagnostic(
                    rule: "AD-3.8",
                    severity: .warning,
                    message:
                        "the file is a signed CMS (PKCS#7) body: signing is deprecated since iOS 9; serve plain JSON"
                )
            )
        }
        let mediaType = report.contentType.map { MediaType.essence(of: $0) }
        let expected = signed ? ["application/pkcs7-mime", "application/json"] : ["application/json"]
        if let mediaType, expected.contains(mediaType) {
            report.pass("AD-4.7", "Content-Type \(mediaType)")
        } else {
            report.diagnostics.append(
                RetrievalDiagnostic(
                    rule: "AD-4.7",
                    severity: .warning,
                    message:
                        "Content-Type is \(report.contentType.map { "'\($0.prefix(200))'" } ?? "missing"); serve the file as application/json (devices do not check, validators do)"
                )
            )
        }
    }

    // MARK: - Failures

    static func tooLarge(cap: Int, detail: String) -> RetrievalFailure {
        RetrievalFailure(
            rule: "AD-4.6",
            domain: RetrievalFailure.urlErrorDomain,
            code: -1103,
            message: "Data exceeded maximum length of \(cap) bytes. (\(detail))"
        )
    }

    static func timedOut(url: String, what: String) -> RetrievalFailure {
        RetrievalFailure(
            rule: "AD-4.8",
            domain: RetrievalFailure.urlErrorDomain,
            code: -1001,
            message: "The request timed out: \(what).",
            isNetworkFailure: true
        )
    }

    /// Maps a transport error to the `NSURLErrorDomain` code a device would record.
    /// The content codings asked for, and decoded.
    static let acceptedEncodings = "gzip, deflate"

    static func classify(_ error: any Error, url: String) -> RetrievalFailure {
        let text = String(describing: error)
        if error is NIOHTTPDecompression.DecompressionError {
            // (The size limit is caught where the cap is known; this is a body that does not decode.)
            return RetrievalFailure(
                rule: "AD-4.6",
                domain: RetrievalFailure.urlErrorDomain,
                code: -1016,
                message: "Cannot decode content data: the body does not decode as its Content-Encoding says (\(text.prefix(200)))."
            )
        }
        if let http = error as? HTTPClientError {
            switch http {
            case .readTimeout:
                return timedOut(url: url, what: "no data arrived within the read timeout")
            case .deadlineExceeded:
                return timedOut(url: url, what: "the whole exchange took longer than the total timeout")
            case .connectTimeout, .tlsHandshakeTimeout:
                return timedOut(url: url, what: "the connection was not established within the connect timeout")
            default:
                break
            }
        }
        if error is CancellationError {
            return timedOut(url: url, what: "the fetch was cancelled")
        }
        if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname {
            return RetrievalFailure(
                rule: "AD-4.3",
                domain: RetrievalFailure.urlErrorDomain,
                code: -1202,
                message: "The certificate for this server is invalid: it does not name the host (\(text.prefix(300))).",
                isNetworkFailure: true
            )
        }
        if error is NIOSSLError || error is NIOSSLExtraError || text.contains("SSL") {
            let untrusted =
                text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("certificate verify failed")
                || text.localizedStandardContainsCertificate
            return RetrievalFailure(
                rule: "AD-4.3",
                domain: RetrievalFailure.urlErrorDomain,
                code: untrusted ? -1202 : -1200,
                message: untrusted
                    ? "The certificate for this server is invalid: it does not chain to a trusted root (custom roots only with --ca-file, for developer-mode entries). (\(text.prefix(300)))"
                    : "An SSL error has occurred and a secure connection to the server cannot be made. (\(text.prefix(300)))",
                isNetworkFailure: true
            )
        }
        if Self.isNameResolutionFailure(error, text: text) {
            return RetrievalFailure(
                rule: "AD-4.8",
                domain: RetrievalFailure.urlErrorDomain,
                code: -1003,
                message: "A server with the specified hostname could not be found. (\(text.prefix(300)))",
                isNetworkFailure: true
            )
        }
        return RetrievalFailure(
            rule: "AD-4.8",
            domain: RetrievalFailure.urlErrorDomain,
            code: -1004,
            message: "Could not connect to the server. (\(text.prefix(300)))",
            isNetworkFailure: true
        )
    }

    /// Whether the host name did not resolve (NSURLErrorCannotFindHost, -1003, on a device) rather
    /// than a connection to a resolved address failing (-1004).
    static func isNameResolutionFailure(_ error: any Error, text: String) -> Bool {
        if let address = error as? SocketAddressError, case .unknown = address { return true }
        // async-http-client reports a failed lookup as "DNS error: SocketAddressError.UnknownHost …".
        return text.hasPrefix("DNS error") || text.contains("SocketAddressError.UnknownHost")
    }

    /// A `--resolve` entry for the host but for another port would send the connection to the
    /// wrong place; refuse rather than guess.
    private func resolveMismatch(for request: AASAFetchRequest) -> RetrievalFailure? {
        let host = request.route == .cdn ? Self.host(ofURL: configuration.cdnBaseURL) : request.host.host
        let port = request.route == .cdn ? Self.port(ofURL: configuration.cdnBaseURL) : request.host.effectivePort
        let entries = configuration.resolveOverrides.filter { $0.host == host }
        guard !entries.isEmpty, !entries.contains(where: { $0.port == port }) else { return nil }
        return RetrievalFailure(
            rule: "AD-4.8",
            domain: RetrievalFailure.urlErrorDomain,
            code: -1004,
            message:
                "--resolve names \(host) on port \(entries.map { String($0.port) }.joined(separator: ", ")) but the fetch goes to port \(port)",
            isNetworkFailure: true
        )
    }

    static func host(ofURL url: String) -> String {
        let afterScheme = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        guard afterScheme.count >= 3 else { return "" }
        return String(afterScheme[2].split(separator: ":").first ?? "").lowercased()
    }

    static func port(ofURL url: String) -> Int {
        let afterScheme = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        guard afterScheme.count >= 3 else { return 443 }
        let parts = afterScheme[2].split(separator: ":")
        return parts.count == 2 ? Int(parts[1]) ?? 443 : 443
    }
}

extension String {
    fileprivate var localizedStandardContainsCertificate: Bool {
        let lower = lowercased()
        return lower.contains("certificate")
            && (lower.contains("unknown") || lower.contains("untrusted") || lower.contains("verify"))
    }
}

extension Duration {
    /// The duration as NIO's `TimeAmount` (nanoseconds, saturating).
    var timeAmount: TimeAmount {
        let (seconds, attoseconds) = components
        let (nanosFromSeconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .nanoseconds(Int64.max) }
        let (total, overflow2) = nanosFromSeconds.addingReportingOverflow(attoseconds / 1_000_000_000)
        return .nanoseconds(overflow2 ? Int64.max : total)
    }

    /// "1.5 s".
    var secondsText: String {
        let (seconds, attoseconds) = components
        let millis = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return millis % 1000 == 0 ? "\(millis / 1000) s" : "\(Double(millis) / 1000) s"
    }
}
