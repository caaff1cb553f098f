public import SWCredCore

/// Where an association source gets its files: the `source` field of `swcred verify`.
///
/// One of three "where" vocabularies, each with its own question (AD-4.1): this one is the
/// *source* the user chose (a flag); ``AssociationRoute`` is what an *entry* requires of any
/// source; `SWCredRetrieval`'s `RetrievalRoute` is the *HTTP exchange* a live source performs,
/// which follows from the two.
public enum AssociationSourceKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// An offline directory of web roots (`--aasa-dir`).
    case dir
    /// Live HTTPS from the site itself (`--direct`).
    case direct
    /// Apple's CDN route (`--cdn`).
    case cdn
}

/// What an entitlement entry requires of the route its file comes over (AD-4.1), whatever the
/// source: a plain entry takes the standard route, an entry with an active `?mode=` must be
/// read from the site itself.
///
/// This is a property of the entry, decided when the entitlement is resolved, and it is part of
/// a request's identity (the same host is two requests when a plain and a mode entry name it).
/// It is not the HTTP exchange: a live source turns it into a `RetrievalRoute` together with its
/// ``AssociationSourceKind`` (`LiveAssociationSource.route(for:)`), and a directory source
/// serves only ``standard`` requests.
public enum AssociationRoute: String, Sendable, Hashable, Codable {
    /// An entry without an active mode: the CDN route on a device; for origin fetches (`dir`,
    /// `direct`), `.well-known` first, then the legacy root location on a 404, with a warning.
    case standard
    /// An entry with an active `?mode=`: `https://host[:port]/.well-known/apple-app-site-association`
    /// only, never the legacy root, never the CDN.
    case modeDirect
}

/// What to retrieve: one origin's file over one route.
public struct AssociationFileRequest: Sendable, Hashable {
    /// The host, lowercase ASCII (A-labels for IDN), no trailing dot. For a wildcard entry, its root.
    public var host: String
    /// The explicit port of the entry, if any (part of the origin and of the URL, AD-2.4, AD-4.1).
    public var port: Int?
    /// The route.
    public var route: AssociationRoute
    /// ``host`` as already parsed (from the entitlement), so that retrieval does not parse it
    /// again; `nil` when the caller has only the text. Not part of the request's identity.
    public var hostName: HostName?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - host: The host, lowercase ASCII, no trailing dot.
    ///   - port: The explicit port of the entry, if any.
    ///   - route: The route.
    ///   - hostName: `host` as already parsed, when the caller has it (``AssociatedDomain/hostName``).
    public init(host: String, port: Int? = nil, route: AssociationRoute = .standard, hostName: HostName? = nil) {
        self.host = host
        self.port = port
        self.route = route
        self.hostName = hostName
    }

    /// Requests are equal when host, port and route are (``hostName`` aside).
    public static func == (lhs: AssociationFileRequest, rhs: AssociationFileRequest) -> Bool {
        lhs.host == rhs.host && lhs.port == rhs.port && lhs.route == rhs.route
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(host)
        hasher.combine(port)
        hasher.combine(route)
    }

    /// `host` plus `:port` for a non-default port: the `--aasa-dir` folder name and the CDN path.
    package var authority: String { Port.authority(host: host, port: port) }
}

/// The HTTP exchange behind a retrieval: the `fetch` object of `swcred verify` and `swcred fetch`.
public struct FetchReport: Sendable, Hashable, Codable {
    /// The URL requested last.
    public var url: String
    /// The HTTP status, when a response arrived; `null` in JSON when none did.
    @ExplicitNull public var status: Int?
    /// The body length after content decoding.
    public var bytes: Int
    /// The `Content-Type` header, if any; `null` in JSON when there is none.
    @ExplicitNull public var contentType: String?
    /// Whether a redirect was followed.
    public var redirected: Bool

    /// Creates a report.
    public init(url: String, status: Int?, bytes: Int, contentType: String?, redirected: Bool) {
        self.url = url
        self.status = status
        self.bytes = bytes
        self.contentType = contentType
        self.redirected = redirected
    }
}

/// Why a retrieval produced no file, in Apple's terms (AD-4.3 to AD-4.6): for example domain
/// `HTTP` code 404, `NSURLErrorDomain` -1103, `NSURLErrorDomain` -1202, `_SWCErrorDomain` 7.
public struct AssociationFetchFailure: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The error domain.
    public var domain: String
    /// The error code in that domain.
    public var code: Int
    /// A sentence for a person.
    public var message: String
    /// The retrieval rule the failure comes from (`AD-4.8`), when one does.
    public var rule: RuleID?
    /// Whether the network failed (timeout, no host, no connection, TLS), or the source could not
    /// run at all: `fetchFailed`; otherwise a retrieval rule refused the file (`fetchRefused`).
    public var isNetworkFailure: Bool

    /// Creates a failure.
    public init(domain: String, code: Int, message: String, rule: RuleID? = nil, isNetworkFailure: Bool = false) {
        self.domain = domain
        self.code = code
        self.message = message
        self.rule = rule
        self.isNetworkFailure = isNetworkFailure
    }

    // The JSON form (verify's `failure`, stored records) keeps its three fields; the rule is in
    // the message too, and the network flag is for the caller's error code only.
    private enum CodingKeys: String, CodingKey { case domain, code, message }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            domain: try container.decode(String.self, forKey: .domain),
            code: try container.decode(Int.self, forKey: .code),
            message: try container.decode(String.self, forKey: .message))
    }

    /// `message (domain code)`.
    public var description: String { "\(message) (\(domain) \(code))" }
}

/// The result of one retrieval: the body (or nothing), the exchange, and what was noticed.
public struct RetrievedAssociationFile: Sendable, Hashable {
    /// Which kind of source answered.
    public var source: AssociationSourceKind
    /// The file body after content decoding, at most 131072 bytes; `nil` when nothing acceptable arrived.
    public var body: [UInt8]?
    /// The HTTP exchange, `nil` for sources without one (`dir`).
    public var fetch: FetchReport?
    /// Why there is no body, when there is none.
    public var failure: AssociationFetchFailure?
    /// Warnings and notes (legacy location used, content type, user-installed root, …).
    public var diagnostics: [Diagnostic]
    /// Whether the TLS chain relied on a user-supplied root (`--ca-file`, AD-4.3).
    public var usedUserInstalledRoot: Bool

    /// Creates a result.
    public init(
        source: AssociationSourceKind, body: [UInt8]?, fetch: FetchReport? = nil,
        failure: AssociationFetchFailure? = nil, diagnostics: [Diagnostic] = [],
        usedUserInstalledRoot: Bool = false
    ) {
        self.source = source
        self.body = body
        self.fetch = fetch
        self.failure = failure
        self.diagnostics = diagnostics
        self.usedUserInstalledRoot = usedUserInstalledRoot
    }
}

/// A source of apple-app-site-association files: an offline directory, the site over HTTPS, or
/// Apple's CDN route. Trust evaluation (``TrustEvaluator``) and the association daemon read files
/// only through this one-method protocol, so tests and the CLI can swap sources.
///
/// Conformers report retrieval failures (HTTP status, TLS, size, redirects) as a value with
/// ``RetrievedAssociationFile/failure`` set and ``RetrievedAssociationFile/body`` `nil`; they
/// throw only when the operation itself cannot run (cancellation, an unusable configuration).
/// A body is returned unparsed; callers parse it with ``AssociationFile/parse(_:limits:)``.
///
/// - `DirectoryAssociationSource` (`dir`) lives in this module.
/// - The live `direct` and `cdn` sources live in `SWCredRetrieval`.
public protocol AssociationFileSource: Sendable {
    /// The kind reported in results.
    var kind: AssociationSourceKind { get }

    /// Retrieves the file for `request`.
    ///
    /// - Parameter request: the origin (host, port) and route.
    /// - Returns: the body or a failure, with the exchange and diagnostics.
    /// - Throws: only when retrieval cannot be attempted at all; `CancellationError` on cancellation.
    func retrieve(_ request: AssociationFileRequest) async throws -> RetrievedAssociationFile
}
