import Foundation
import NIOCore
import SWCredCore
import SWCredRetrieval
import SWCredRetrievalLive
import SWCredTLSTestServer
import Testing

@Suite("Size cap and timeouts")
struct SizeAndTimeTests {
    static let cap = 131_072

    @Test(
        "AD-4.6: exactly 131072 bytes are accepted, with and without Content-Length",
        arguments: [
            TestRoute.Framing.contentLength, .chunked,
        ])
    func exactlyAtCap(framing: TestRoute.Framing) async throws {
        var route = TestRoute.bytes([UInt8](repeating: 0x20, count: Self.cap), framing: framing)
        route.chunkSize = 10_000
        let (result, _) = try await fetchOnce(routes: [wellKnown: route])
        #expect(result.report.accepted)
        #expect(result.report.bytes == Self.cap)
        #expect(result.body?.count == Self.cap)
    }

    @Test("AD-4.6: 131073 bytes announced by Content-Length are refused before reading")
    func announcedOverCap() async throws {
        let (result, _) = try await fetchOnce(routes: [wellKnown: .bytes([UInt8](repeating: 0x20, count: Self.cap + 1))]
        )
        #expect(!result.report.accepted)
        #expect(result.report.bytes == 0)
        #expect(result.report.failure?.rule == .ad4_6)
        #expect(result.report.failure?.domain == "NSURLErrorDomain")
        #expect(result.report.failure?.code == -1103)
        #expect(result.report.failure?.message.hasPrefix("Data exceeded maximum length of 131072 bytes.") == true)
        #expect(result.body == nil)
    }

    @Test("AD-4.6: a chunked body of 131073 bytes is refused when byte 131073 arrives")
    func streamedOverCap() async throws {
        var route = TestRoute.bytes([UInt8](repeating: 0x20, count: Self.cap + 1), framing: .chunked)
        route.chunkSize = 4096
        let (result, _) = try await fetchOnce(routes: [wellKnown: route])
        #expect(!result.report.accepted)
        #expect(result.report.bytes == Self.cap + 1)
        #expect(result.report.failure?.code == -1103)
        #expect(result.body == nil)
    }

    @Test("AD-4.6: an endless body is cut off: the client stops reading and closes")
    func endlessBodyStops() async throws {
        try await TLSTestServer.withServer(hostnames: ["aasa.test"]) { server in
            let limit = 256 << 20
            server.setRoute(
                wellKnown,
                TestRoute(
                    body: [UInt8](repeating: 0x41, count: 16_384), framing: .chunked, endless: true, endlessLimit: limit
                )
            )
            let result = try await LiveAssociationFileFetcher.withFetcher(configuration: configuration(for: server)) {
                await $0.fetch(try request(server))
            }
            #expect(!result.report.accepted)
            #expect(result.report.bytes == Self.cap + 1)
            #expect(result.report.failure?.code == -1103)
            let record = try await server.waitForResponseEnd(index: 0, timeout: .seconds(60))
            // The server saw the client go away long before its own limit: the client did not keep reading.
            #expect(record?.clientClosed == true)
            #expect((record?.bytesSent ?? limit) < limit / 4)
        }
    }

    @Test("AD-4.8: a server that drips bytes past the total timeout is refused with -1001")
    func dripPastTotalTimeout() async throws {
        // 300 bytes, one every 100 ms: about 30 s in all, against a 3 s total timeout (roomy
        // enough for a TLS handshake on a loaded machine, so the request does reach the server).
        let body = Array((goodAASA + String(repeating: " ", count: 300 - goodAASA.utf8.count)).utf8)
        var route = TestRoute.bytes(body, framing: .chunked)
        route.chunkSize = 1
        route.dripInterval = .milliseconds(100)
        try await TLSTestServer.withServer(hostnames: ["aasa.test"], routes: [wellKnown: route]) { server in
            let config = configuration(for: server, totalTimeout: .seconds(3), readTimeout: .seconds(10))
            let result = try await LiveAssociationFileFetcher.withFetcher(configuration: config) { fetcher in
                await fetcher.fetch(try request(server))
            }
            #expect(!result.report.accepted)
            #expect(result.report.failure?.rule == .ad4_8)
            #expect(result.report.failure?.domain == "NSURLErrorDomain")
            #expect(result.report.failure?.code == -1001)
            #expect(result.report.failure?.message.contains("whole exchange") == true)
            #expect(result.report.bytes < body.count)
            // Refused by the timeout, not after the server finished: the client went away mid-body.
            let record = try await server.waitForResponseEnd(index: 0, timeout: .seconds(60))
            #expect(record?.clientClosed == true)
            #expect((record?.bytesSent ?? .max) < body.count)
        }
    }

    @Test("AD-4.8: a server that goes silent after the headers is refused by the read timeout")
    func silentServer() async throws {
        var route = TestRoute.bytes(Array(goodAASA.utf8), framing: .chunked)
        route.chunkSize = 10
        route.dripInterval = .seconds(6)
        let (result, _) = try await fetchOnce(
            routes: [wellKnown: route],
            totalTimeout: .seconds(30),
            readTimeout: .milliseconds(500)
        )
        #expect(!result.report.accepted)
        #expect(result.report.failure?.code == -1001)
        #expect(result.report.failure?.message.contains("read timeout") == true)
    }
}

@Suite("Stalled servers and the total timeout")
struct StalledServerTests {
    @Test(
        "AD-4.8: a server that stalls after the headers is cut by the total timeout when it is the shorter",
        .timeLimit(.minutes(1))
    )
    func stalledWithinTotal() async throws {
        var route = TestRoute.bytes(Array(goodAASA.utf8), framing: .chunked)
        route.chunkSize = 10
        route.dripInterval = .seconds(120)
        try await TLSTestServer.withServer(hostnames: ["aasa.test"], routes: [wellKnown: route]) { server in
            // Read timeout far beyond the test's patience; the total timeout must still end the fetch.
            let config = configuration(for: server, totalTimeout: .seconds(2), readTimeout: .seconds(600))
            let result = try await LiveAssociationFileFetcher.withFetcher(configuration: config) { fetcher in
                await fetcher.fetch(try request(server))
            }
            #expect(!result.report.accepted)
            #expect(result.report.failure?.code == -1001)
        }
    }
}
