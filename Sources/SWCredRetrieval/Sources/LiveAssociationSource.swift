public import SWCredAssociation
package import SWCredCore

/// The live `direct` and `cdn` sources of ``AssociationFileSource``: association files fetched
/// over HTTPS by a ``LiveFileFetcher``, `SWCredRetrievalLive`'s `LiveAssociationFileFetcher`
/// (`verify --direct`, `verify --cdn`, daemon refreshes).
///
/// Routes (AD-4.1):
/// - `cdn`: plain entries go through the CDN route; entries with an active mode never do, they
///   go to the site's `.well-known` only.
/// - `direct`: plain entries use the origin fetch (`.well-known`, then the legacy root on a 404,
///   with a warning); mode entries use `.well-known` only.
///
/// User-installed roots (`--ca-file`) have developer-mode semantics (AD-4.3): with the default
/// policy they are offered only for mode-route requests made while the device is in developer
/// mode (the only way a developer entry is fetched). A fetch that relied on one is flagged in the
/// result (`usedUserInstalledRoot`) and in its diagnostics.
public struct LiveAssociationSource: AssociationFileSource {
    /// When user-installed roots may vouch for a server.
    public enum UserRootPolicy: String, Sendable, Hashable, Codable {
        /// Never.
        case never
        /// For mode-route requests when the device is in developer mode (AD-4.3).
        case developerEntries
        /// Always, as an explicit command-line fetch may (flagged in the result).
        case always
    }

    /// `direct` or `cdn`.
    public let kind: AssociationSourceKind
    /// The fetcher (one shared HTTP client).
    package let fetcher: any AssociationFileFetcher
    /// The device's settings, for the user-root policy.
    package let device: DeviceSettings
    /// When user-installed roots count.
    package let userRoots: UserRootPolicy

    /// Creates a live source.
    ///
    /// - Parameters:
    ///   - kind: `.direct` or `.cdn`.
    ///   - fetcher: the fetcher to use.
    ///   - device: developer mode and managed state.
    ///   - userRoots: the user-installed root policy (default: developer entries only).
    /// - Throws: `SWCredError.invalidParameter` for `kind == .dir`.
    package init(
        kind: AssociationSourceKind,
        fetcher: any AssociationFileFetcher,
        device: DeviceSettings = .init(),
        userRoots: UserRootPolicy = .developerEntries
    ) throws {
        guard kind != .dir else {
            throw SWCredError(.invalidParameter, "a live source is direct or cdn, not dir")
        }
        self.kind = kind
        self.fetcher = fetcher
        self.device = device
        self.userRoots = userRoots
    }

    /// Shuts down the fetcher's HTTP client when it is a live one (``LiveFileFetcher``).
    package func shutdown() async throws {
        if let live = fetcher as? any LiveFileFetcher {
            try await live.shutdown()
        }
    }

    /// The retrieval route for a request (AD-4.1).
    package func route(for request: AssociationFileRequest) -> RetrievalRoute {
        switch (kind, request.route) {
        case (_, .modeDirect): .wellKnownOnly
        case (.cdn, .standard): .cdn
        default: .wellKnownThenLegacyRoot
        }
    }

    /// Fetches the file for `request`; failures are values, never thrown (only cancellation is).
    public func retrieve(_ request: AssociationFileRequest) async throws -> RetrievedAssociationFile {
        try Task.checkCancellation()
        let host: RetrievalHost
        do {
            // An entitlement host was parsed once, with the entitlement; only other text is parsed here.
            if let name = request.hostName, name.text == request.host {
                host = try RetrievalHost(name, port: request.port)
            } else {
                host = try RetrievalHost(host: request.host, port: request.port)
            }
        } catch let error as SWCredError {
            return RetrievedAssociationFile(
                source: kind,
                body: nil,
                failure: AssociationFetchFailure(domain: "swcred", code: -50, message: error.message)
            )
        } catch {
            return RetrievedAssociationFile(
                source: kind,
                body: nil,
                failure: AssociationFetchFailure(domain: "swcred", code: -50, message: "\(error)")
            )
        }
        let allowRoots: Bool =
            switch userRoots {
            case .never: false
            case .always: true
            case .developerEntries: request.route == .modeDirect && device.developerMode
            }
        let result = await fetcher.fetch(
            AASAFetchRequest(host: host, route: route(for: request), allowUserInstalledRoots: allowRoots))
        try Task.checkCancellation()
        return RetrievedAssociationFile(result, source: kind)
    }
}

extension RetrievedAssociationFile {
    /// A live fetch result in the association module's terms.
    package init(_ result: AASAFetchResult, source: AssociationSourceKind) {
        let report = result.report
        self.init(
            source: source,
            body: report.accepted ? result.body : nil,
            fetch: FetchReport(report),
            failure: report.failure.map {
                AssociationFetchFailure(
                    domain: $0.domain, code: $0.code, message: "\($0.rule): \($0.message)", rule: $0.rule,
                    isNetworkFailure: $0.isNetworkFailure)
            },
            // Errors are in `failure`; passed checks are listed by `fetch` only.
            diagnostics: report.diagnostics.filter { $0.severity != .error && $0.severity != .passed }.map(
                \.leadingRule),
            usedUserInstalledRoot: report.userInstalledRoot
        )
    }
}

extension FetchReport {
    /// The `fetch` object of `verify` from a retrieval report.
    package init(_ report: AASAFetchReport) {
        self.init(
            url: report.url,
            status: report.status,
            bytes: report.bytes,
            contentType: report.contentType,
            redirected: report.redirected
        )
    }
}
