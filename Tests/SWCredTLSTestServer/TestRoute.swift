/// What the test server answers for one path: status, headers, body and how the body is sent.
///
/// Routes are plain values so a test can state the whole exchange in one line
/// (`.json(#"{"webcredentials":{"apps":[]}}"#)`, `.redirect(301, to: "https://www.aasa.test/")`).
public struct TestRoute: Sendable {
    /// How the body goes on the wire.
    public enum Framing: Sendable, Hashable {
        /// With a `Content-Length` header.
        case contentLength
        /// With `Transfer-Encoding: chunked` and no length: the client learns the size only by reading.
        case chunked
    }

    /// The HTTP status code.
    public var status: Int
    /// Response headers, in order (a `Content-Length` or `Transfer-Encoding` is added by ``framing``).
    public var headers: [(String, String)]
    /// The body bytes.
    public var body: [UInt8]
    /// How the body is framed.
    public var framing: Framing
    /// Send the body in pieces of this many bytes (nil: in one write).
    public var chunkSize: Int?
    /// Wait this long before each piece (a slow "drip" server).
    public var dripInterval: Duration?
    /// Keep sending pieces of ``body`` without end until the client goes away (or
    /// ``endlessLimit`` bytes are sent), to show that a client stops reading at its cap.
    public var endless: Bool
    /// The most bytes an endless body sends before the server gives up on its own.
    public var endlessLimit: Int

    /// Creates a route.
    public init(
        status: Int = 200,
        headers: [(String, String)] = [],
        body: [UInt8] = [],
        framing: Framing = .contentLength,
        chunkSize: Int? = nil,
        dripInterval: Duration? = nil,
        endless: Bool = false,
        endlessLimit: Int = 64 << 20
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.framing = framing
        self.chunkSize = chunkSize
        self.dripInterval = dripInterval
        self.endless = endless
        self.endlessLimit = endlessLimit
    }

    /// A 200 answer with a JSON body and `Content-Type: application/json` (or `contentType`).
    public static func json(_ text: String, contentType: String? = "application/json") -> TestRoute {
        TestRoute(headers: contentType.map { [("Content-Type", $0)] } ?? [], body: Array(text.utf8))
    }

    /// A 200 answer with the given bytes.
    public static func bytes(
        _ body: [UInt8], contentType: String? = "application/json", framing: Framing = .contentLength
    )
        -> TestRoute
    {
        TestRoute(headers: contentType.map { [("Content-Type", $0)] } ?? [], body: body, framing: framing)
    }

    /// A redirect to `location` with the given 3xx status.
    public static func redirect(_ status: Int, to location: String) -> TestRoute {
        TestRoute(status: status, headers: [("Location", location)], body: Array("moved\n".utf8))
    }

    /// A plain-text answer with any status (404, 500, …).
    public static func status(_ status: Int, body: String = "", headers: [(String, String)] = []) -> TestRoute {
        TestRoute(status: status, headers: [("Content-Type", "text/plain")] + headers, body: Array(body.utf8))
    }
}

/// One request the test server received.
public struct RecordedRequest: Sendable, Hashable {
    /// The request target (path and query).
    public let uri: String
    /// The `Host` header, if any.
    public let host: String?
    /// The HTTP method.
    public let method: String
    /// Every header, names lowercased.
    public let headers: [String: String]
    /// Body bytes the server wrote in answer, counted as the writes completed.
    public var bytesSent: Int
    /// Whether the server stopped sending because the client went away.
    public var clientClosed: Bool
}
