import AsyncHTTPClient
import NIOCore
import NIOHTTPCompression
import NIOPosix
import NIOSSL
import SWCredCore
import SWCredRetrieval

// The mapping of transport failures to the code a device records, decided by the error's type
// only. The error's text goes into the message for a person, never into the decision.
extension RetrievalFailure {
    /// The body exceeded the cap (AD-4.6, `NSURLErrorDomain` −1103).
    static func tooLarge(cap: Int, detail: String) -> RetrievalFailure {
        RetrievalFailure(
            rule: .ad4_6,
            domain: RetrievalFailure.urlErrorDomain,
            code: -1103,
            message: "Data exceeded maximum length of \(cap) bytes. (\(detail))"
        )
    }

    /// A timeout (AD-4.8, `NSURLErrorDomain` −1001).
    static func timedOut(url: String, what: String) -> RetrievalFailure {
        RetrievalFailure(
            rule: .ad4_8,
            domain: RetrievalFailure.urlErrorDomain,
            code: -1001,
            message: "The request timed out: \(what).",
            isNetworkFailure: true
        )
    }

    /// The kinds of transport failure a device tells apart, each with its `NSURLErrorDomain` code.
    enum TransportClass: Equatable {
        /// −1016: the body does not decode as its `Content-Encoding` says.
        case undecodableBody
        /// −1001: a connect, handshake, read or total timeout, or a cancelled fetch.
        case timedOut(String)
        /// −1202: the certificate does not name the host.
        case hostNameMismatch
        /// −1202: the handshake failed while the chain was being verified (see ``transportClass(of:)``).
        case untrustedCertificate
        /// −1200: another TLS failure (the peer closed during the handshake, an unclean shutdown).
        case secureConnectionFailed
        /// −1003: the host name did not resolve.
        case cannotFindHost
        /// −1004: the connection to a resolved address failed (refused, unreachable, reset).
        case cannotConnect
    }

    /// Classifies a transport error by its type.
    ///
    /// **Decision:** NIOSSL reports every failed client handshake as
    /// `NIOSSLError.handshakeFailed(.sslError(stack))` and keeps BoringSSL's reason code private,
    /// so the type cannot tell an untrusted chain from a handshake the server broke off with an
    /// alert. With verification always on (AD-4.3), the untrusted chain is by far the common
    /// cause, so such a failure is −1202; a handshake cut by end of file, and every other TLS
    /// error, is −1200. A host-name mismatch has its own type and is −1202.
    static func transportClass(of error: any Error) -> TransportClass {
        switch error {
        case is NIOHTTPDecompression.DecompressionError:
            return .undecodableBody
        case let http as HTTPClientError:
            switch http {
            case .readTimeout: return .timedOut("no data arrived within the read timeout")
            case .deadlineExceeded: return .timedOut("the whole exchange took longer than the total timeout")
            case .connectTimeout, .tlsHandshakeTimeout:
                return .timedOut("the connection was not established within the connect timeout")
            case .cancelled: return .timedOut("the fetch was cancelled")
            default: return .cannotConnect
            }
        case is CancellationError:
            return .timedOut("the fetch was cancelled")
        case let channel as ChannelError:
            if case .connectTimeout = channel {
                return .timedOut("the connection was not established within the connect timeout")
            }
            return .cannotConnect
        case let extra as NIOSSLExtraError:
            return extra == .failedToValidateHostname ? .hostNameMismatch : .secureConnectionFailed
        case let ssl as NIOSSLError:
            if case .handshakeFailed(.sslError(let stack)) = ssl, !stack.isEmpty,
                !stack.contains(.eofDuringHandshake)
            {
                return .untrustedCertificate
            }
            return .secureConnectionFailed
        case is BoringSSLError, is NIOSSLCloseTimedOutError:
            return .secureConnectionFailed
        case let connection as NIOConnectionError:
            // No address to try: the lookups failed. Addresses tried and failed: -1004.
            let lookupFailed = connection.dnsAError != nil || connection.dnsAAAAError != nil
            return lookupFailed && connection.connectionErrors.isEmpty ? .cannotFindHost : .cannotConnect
        case is SocketAddressError.UnknownHost:
            return .cannotFindHost
        case let address as SocketAddressError:
            if case .unknown = address { return .cannotFindHost }
            return .cannotConnect
        default:
            return .cannotConnect
        }
    }

    /// Maps a transport error to the `NSURLErrorDomain` failure a device would record.
    static func transport(_ error: any Error, url: String) -> RetrievalFailure {
        let detail = String(describing: error).prefix(300)
        switch transportClass(of: error) {
        case .undecodableBody:
            // (The size limit is caught where the cap is known; this is a body that does not decode.)
            return RetrievalFailure(
                rule: .ad4_6,
                domain: urlErrorDomain,
                code: -1016,
                message:
                    "Cannot decode content data: the body does not decode as its Content-Encoding says (\(detail.prefix(200)))."
            )
        case .timedOut(let what):
            return timedOut(url: url, what: what)
        case .hostNameMismatch:
            return RetrievalFailure(
                rule: .ad4_3,
                domain: urlErrorDomain,
                code: -1202,
                message: "The certificate for this server is invalid: it does not name the host (\(detail)).",
                isNetworkFailure: true
            )
        case .untrustedCertificate:
            return RetrievalFailure(
                rule: .ad4_3,
                domain: urlErrorDomain,
                code: -1202,
                message:
                    "The certificate for this server is invalid: it does not chain to a trusted root (custom roots only with --ca-file, for developer-mode entries). (\(detail))",
                isNetworkFailure: true
            )
        case .secureConnectionFailed:
            return RetrievalFailure(
                rule: .ad4_3,
                domain: urlErrorDomain,
                code: -1200,
                message:
                    "An SSL error has occurred and a secure connection to the server cannot be made. (\(detail))",
                isNetworkFailure: true
            )
        case .cannotFindHost:
            return RetrievalFailure(
                rule: .ad4_8,
                domain: urlErrorDomain,
                code: -1003,
                message: "A server with the specified hostname could not be found. (\(detail))",
                isNetworkFailure: true
            )
        case .cannotConnect:
            return RetrievalFailure(
                rule: .ad4_8,
                domain: urlErrorDomain,
                code: -1004,
                message: "Could not connect to the server. (\(detail))",
                isNetworkFailure: true
            )
        }
    }
}
