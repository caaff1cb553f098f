import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOSSL
import SWCredAssociation
import SWCredCore
import SWCredRetrieval

// One HTTP exchange under the size and time rules (AD-4.5, AD-4.6, AD-4.8): the request, the
// status, the streamed body with its cap, and the total-timeout timer.
extension LiveAssociationFileFetcher {
    /// The content codings asked for, and decoded.
    static let acceptedEncodings = "gzip, deflate"

    /// Runs one exchange and a timer for the total timeout; whichever ends first decides.
    func attemptWithDeadline(
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
                report.refuse(
                    RetrievalFailure.timedOut(
                        url: url, what: "the whole exchange took longer than \(total.secondsText)"))
                outcome = AASAFetchResult(report: report, body: nil)
            }
            // Let the cancelled child finish so no request outlives this call.
            while await group.next() != nil {}
            return outcome ?? AASAFetchResult(report: AASAFetchReport(url: url, route: route), body: nil)
        }
    }

    func attempt(
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
            report.pass(.ad4_2, "the URL is https")
            if !withUserRoots {
                report.pass(.ad4_3, "the certificate chain is trusted by the system roots and names the host")
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
                        rule: .ad4_4, domain: RetrievalFailure.httpDomain, code: status, message: message))
                return AASAFetchResult(report: report, body: nil)
            }
            // AD-4.1 (CDN) and AD-4.5: error statuses.
            guard (200..<300).contains(status) else {
                if route == .cdn, (400...599).contains(status) {
                    let reason = response.headers.first(name: "apple-failure-reason") ?? "none"
                    let details = response.headers.first(name: "apple-failure-details") ?? "none"
                    report.refuse(
                        RetrievalFailure(
                            rule: .ad4_1,
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
                            rule: .ad4_5,
                            domain: RetrievalFailure.httpDomain,
                            code: status,
                            message: "the server answered \(status): \(meaning)"
                        )
                    )
                }
                return AASAFetchResult(report: report, body: nil)
            }
            report.pass(.ad4_4, "no redirect")
            report.pass(.ad4_5, "status \(status)")
            // AD-4.6: an announced length over the cap is refused before reading a byte (for an
            // encoded body the length is of the encoded bytes, so only the decoded count decides).
            let encoding = response.headers.first(name: "content-encoding")?.trimmingCharacters(in: .whitespaces)
                .lowercased()
            let decoded = encoding == "gzip" || encoding == "x-gzip" || encoding == "deflate"
            if encoding == nil || encoding == "identity",
                let announced = response.headers.first(name: "content-length").flatMap({ Int($0) }), announced > cap
            {
                report.refuse(
                    RetrievalFailure.tooLarge(cap: cap, detail: "Content-Length announces \(announced) bytes"))
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
                        RetrievalFailure.timedOut(
                            url: url,
                            what: "the whole exchange took longer than \(configuration.totalTimeout.secondsText)")
                    )
                    return AASAFetchResult(report: report, body: nil)
                }
                let count = chunk.readableBytes
                if received + count > cap {
                    received = cap + 1
                    report.bytes = received
                    report.refuse(
                        RetrievalFailure.tooLarge(cap: cap, detail: "byte \(cap + 1) arrived; reading stopped there"))
                    return AASAFetchResult(report: report, body: nil)
                }
                chunk.withUnsafeReadableBytes { body.append(contentsOf: $0) }
                received += count
            }
            report.bytes = received
            report.pass(.ad4_6, "\(received) bytes, within the \(cap)-byte cap")
            report.pass(.ad4_8, "answered within the timeouts")
            if decoded, let encoding {
                report.pass(.ad4_6, "Content-Encoding \(encoding) decoded; the cap counted the decoded bytes")
            } else if let encoding, encoding != "identity" {
                report.diagnostics.append(
                    Diagnostic(
                        .warning,
                        "the server sent Content-Encoding '\(encoding.prefix(100))', which was not asked for (\(Self.acceptedEncodings)); the cap and the parse apply to the bytes as received",
                        rule: .ad4_6)
                )
            }
            report.addContentWarnings(body: body)
            report.accepted = true
            return AASAFetchResult(report: report, body: body)
        } catch let decoding as NIOHTTPDecompression.DecompressionError where decoding == .limit {
            report.bytes = cap + 1
            report.refuse(
                RetrievalFailure.tooLarge(
                    cap: cap, detail: "the body inflated past the cap while being decoded; decoding stopped there"))
            return AASAFetchResult(report: report, body: nil)
        } catch {
            report.refuse(RetrievalFailure.transport(error, url: url))
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
}
