import AsyncHTTPClient
import Glibc
import NIOCore
import NIOHTTPCompression
import NIOPosix
import NIOSSL
import SWCredCore
import Testing

@testable import SWCredRetrieval
@testable import SWCredRetrievalLive

/// One test per class of transport failure: the code a device records is decided by the error's
/// type, never by its text. (The classes whose errors only NIO can make — a failed DNS lookup,
/// a refused connection, an untrusted chain — are also driven for real against the TLS test
/// server in `TrustAndSchemeTests` and `TransportTests`.)
@Suite("Transport failure classification")
struct TransportClassificationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let error: any Error & Sendable
        let code: Int
        let rule: RuleID
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "a body that does not decode is -1016",
            error: NIOHTTPDecompression.DecompressionError.inflationError(-3), code: -1016, rule: .ad4_6),
        Case(name: "a read timeout is -1001", error: HTTPClientError.readTimeout, code: -1001, rule: .ad4_8),
        Case(name: "a missed deadline is -1001", error: HTTPClientError.deadlineExceeded, code: -1001, rule: .ad4_8),
        Case(name: "a connect timeout is -1001", error: HTTPClientError.connectTimeout, code: -1001, rule: .ad4_8),
        Case(
            name: "a TLS handshake timeout is -1001", error: HTTPClientError.tlsHandshakeTimeout, code: -1001,
            rule: .ad4_8),
        Case(
            name: "a channel connect timeout is -1001", error: ChannelError.connectTimeout(.seconds(1)), code: -1001,
            rule: .ad4_8),
        Case(name: "a cancelled fetch is -1001", error: CancellationError(), code: -1001, rule: .ad4_8),
        Case(
            name: "a certificate for another host is -1202", error: NIOSSLExtraError.failedToValidateHostname,
            code: -1202, rule: .ad4_3),
        Case(
            name: "a handshake cut by end of file is -1200",
            error: NIOSSLError.handshakeFailed(.sslError([.eofDuringHandshake])), code: -1200, rule: .ad4_3),
        Case(name: "an unclean TLS shutdown is -1200", error: NIOSSLError.uncleanShutdown, code: -1200, rule: .ad4_3),
        Case(
            name: "a host that does not resolve is -1003",
            error: SocketAddressError.unknown(host: "aasa.invalid", port: 443), code: -1003, rule: .ad4_8),
        Case(
            name: "a refused connection is -1004",
            error: IOError(errnoCode: ECONNREFUSED, reason: "connect"), code: -1004, rule: .ad4_8),
        Case(
            name: "a connection the server closed is -1004", error: HTTPClientError.remoteConnectionClosed,
            code: -1004, rule: .ad4_8),
    ]

    @Test("AD-4.3/4.6/4.8: each transport error type maps to the device's code", arguments: cases)
    func classifiesByType(_ testCase: Case) {
        let failure = RetrievalFailure.transport(testCase.error, url: "https://aasa.test/")
        #expect(failure.code == testCase.code)
        #expect(failure.domain == RetrievalFailure.urlErrorDomain)
        #expect(failure.rule == testCase.rule)
    }

    /// An error whose text mentions TLS words but whose type is unrelated must not be taken for
    /// a TLS failure (the old classifier matched "SSL" and "certificate" in the description).
    struct MisleadingError: Error, CustomStringConvertible {
        var description: String { "SSL CERTIFICATE_VERIFY_FAILED DNS error: certificate unknown" }
    }

    @Test("AD-4.8: the text of an error never decides its class")
    func textDoesNotDecide() {
        let failure = RetrievalFailure.transport(MisleadingError(), url: "https://aasa.test/")
        #expect(failure.code == -1004)
    }
}
