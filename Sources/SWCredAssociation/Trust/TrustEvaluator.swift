public import SWCredCore

/// The trust decision for one entitlement entry: the `associations[]` element of `swcred verify`.
public struct AssociationVerdict: Sendable, Hashable, Codable {
    /// The entry as written.
    public var entry: String
    /// Its service (lowercased).
    public var service: String
    /// Its host (without `*.`), lowercase ASCII; empty when the entry could not be parsed.
    public var host: String
    /// Its explicit port, if any; `null` in JSON when there is none.
    @ExplicitNull public var port: Int?
    /// Whether it is a wildcard entry.
    public var wildcard: Bool
    /// Its mode tokens.
    public var modes: [String]
    /// The host (and port) whose file was consulted.
    public var aasaHost: String
    /// The kind of source consulted.
    public var source: AssociationSourceKind
    /// The HTTP exchange, if the source had one; `null` in JSON when it had none.
    @ExplicitNull public var fetch: FetchReport?
    /// Both sides agree (AD-6.1).
    public var trusted: Bool
    /// Why, for a person: "webcredentials.apps does not list X; it lists …".
    public var reason: String
    /// Everything noticed on the way.
    public var diagnostics: [Diagnostic]
}

/// The result of checking every entry of an app: the body of `swcred verify`'s JSON.
public struct TrustReport: Sendable, Hashable, Codable {
    /// The app checked.
    public var appID: String
    /// Every checked association is trusted (and there is at least one).
    public var trusted: Bool
    /// One verdict per checked entry, in entitlement order.
    public var associations: [AssociationVerdict]
}

/// Evaluates two-way trust (section 6) for an app's entitlement entries against a source.
///
/// For each entry of the requested services: an invalid entry is not trusted; an inactive one
/// (mode gating) is not trusted with the gating reason; a collapsed duplicate is left out.
/// Otherwise the file of the entry's `aasaHost` is retrieved once per (origin, route) (AD-4.8),
/// parsed, and checked for the app ID (AD-6.2, AD-6.4). Browser apps never trust `applinks` (AD-6.6).
///
/// ```swift
/// let app = try AppIdentity(entitlements: try Entitlements.load(path: "Shop.entitlements"))
/// let report = await TrustEvaluator(source: DirectoryAssociationSource(root: "Fixtures/sites"))
///     .evaluate(app: app)
/// ```
public struct TrustEvaluator: Sendable {
    /// Where files come from.
    public var source: any AssociationFileSource
    /// The device's settings (mode gating).
    public var device: DeviceSettings
    /// Limits for parsing retrieved files.
    public var limits: AssociationFile.Limits
    /// Called after each origin's file is retrieved (in completion order, one call at a time), for
    /// a progress display; `nil` for none.
    package var onRetrieval: (@Sendable (RetrievalProgress) -> Void)?

    /// One finished retrieval of ``evaluate(app:services:)``'s concurrent prefetch.
    package struct RetrievalProgress: Sendable, Equatable {
        /// Retrievals finished so far, this one included.
        package var completed: Int
        /// Retrievals the evaluation needs (distinct origin and route pairs).
        package var total: Int
        /// The origin retrieved, `host` or `host:port`.
        package var authority: String
        /// Whether a file was retrieved and parsed.
        package var usable: Bool
    }

    /// Creates an evaluator.
    public init(
        source: any AssociationFileSource, device: DeviceSettings = .init(),
        limits: AssociationFile.Limits = .init()
    ) {
        self.source = source
        self.device = device
        self.limits = limits
    }

    /// The outcome of retrieving and parsing one origin's file.
    package struct Retrieval: Sendable {
        /// The raw retrieval.
        package var retrieved: RetrievedAssociationFile
        /// The parsed file, when there was a body and it parsed.
        package var file: AssociationFile?
        /// Why there is no file, for a reason string.
        package var problem: String?
    }

    /// Retrieves and parses the file for `request`; never throws (failures are in the result).
    package func retrieve(_ request: AssociationFileRequest) async -> Retrieval {
        let retrieved: RetrievedAssociationFile
        do {
            retrieved = try await source.retrieve(request)
        } catch {
            let failure = AssociationFetchFailure(
                domain: "swcred", code: -1, message: "retrieval failed: \(error)", isNetworkFailure: true)
            return Retrieval(
                retrieved: RetrievedAssociationFile(source: source.kind, body: nil, failure: failure),
                file: nil, problem: "could not retrieve the file for \(request.authority): \(error)")
        }
        guard let body = retrieved.body else {
            let why = retrieved.failure?.description ?? "no file"
            return Retrieval(
                retrieved: retrieved, file: nil,
                problem: "could not retrieve the file for \(request.authority): \(why)")
        }
        do {
            let file = try AssociationFile.parse(body, limits: limits)
            return Retrieval(retrieved: retrieved, file: file, problem: nil)
        } catch {
            return Retrieval(
                retrieved: retrieved, file: nil,
                problem: "the file for \(request.authority) is not usable: \(error.message)")
        }
    }

    /// Checks every entry of `app` (or only those of `services`).
    ///
    /// - Parameters:
    ///   - app: the app and its entitlements.
    ///   - services: the services to check; `nil` for all.
    /// - Returns: the report; `trusted` is false when any checked entry is not trusted or none was checked.
    public func evaluate(app: AppIdentity, services: Set<AssociationService>? = nil) async -> TrustReport {
        let resolved = EntitlementResolver.resolve(app.entitlements, device: device)
        // AD-4.8: one retrieval per (origin, route); distinct origins are retrieved concurrently.
        var cache = await prefetch(resolved, app: app, services: services)
        var verdicts: [AssociationVerdict] = []
        if let problem = app.entitlements.associatedDomainsProblem {
            verdicts.append(
                AssociationVerdict(
                    entry: "com.apple.developer.associated-domains", service: "", host: "", port: nil, wildcard: false,
                    modes: [], aasaHost: "", source: source.kind, fetch: nil, trusted: false, reason: problem,
                    diagnostics: [.error(problem, id: "SWC107")]))
        }
        for item in resolved {
            let entry = item.entry
            let domain = entry.domain
            if let services, let service = domain?.service, !services.contains(service) { continue }
            if domain == nil, services != nil { continue }
            var verdict = AssociationVerdict(
                entry: entry.raw, service: domain?.service.rawValue ?? "", host: domain?.host ?? "",
                port: domain?.port, wildcard: domain?.wildcard ?? false, modes: domain?.modes.names ?? [],
                aasaHost: domain?.aasaHost ?? "", source: source.kind, fetch: nil, trusted: false, reason: "",
                diagnostics: item.diagnostics)
            guard entry.valid, let domain else {
                let first = entry.diagnostics.first { $0.severity != .note }?.message ?? "invalid entry"
                verdict.reason = "invalid entry: \(first)"
                verdicts.append(verdict)
                continue
            }
            if !item.active {
                // Collapsed duplicates and shadowed plain entries are represented by another entry.
                if item.representedBy != nil { continue }
                let gating = EntitlementResolver.gatingProblem(
                    modes: domain.modes, developmentSigned: app.entitlements.developmentSigned, device: device)
                verdict.reason = "entry not active on this device: \(gating ?? "skipped")"
                verdicts.append(verdict)
                continue
            }
            if domain.service == .applinks, app.entitlements.webBrowser {
                verdict.reason = "Apps registered as web browsers cannot use applinks (TN3155)"
                verdicts.append(verdict)
                continue
            }
            let request = AssociationFileRequest(
                host: domain.host, port: domain.port, route: item.route, hostName: domain.hostName)
            let retrieval: Retrieval
            if let cached = cache[request] {
                retrieval = cached
            } else {
                retrieval = await retrieve(request)
                cache[request] = retrieval
            }
            verdict.fetch = retrieval.retrieved.fetch
            verdict.diagnostics += retrieval.retrieved.diagnostics
            if let file = retrieval.file {
                verdict.diagnostics += file.diagnostics
                let decision = Self.decide(file: file, appID: app.appID, service: domain.service)
                verdict.trusted = decision.trusted
                verdict.reason = decision.reason
            } else {
                verdict.reason = retrieval.problem ?? "no file"
            }
            verdicts.append(verdict)
        }
        let trusted = !verdicts.isEmpty && verdicts.allSatisfy(\.trusted)
        return TrustReport(appID: app.appID, trusted: trusted, associations: verdicts)
    }

    /// The requests the active, checkable entries need, each retrieved once, at most
    /// `maximumConcurrentRetrievals` at a time.
    private func prefetch(_ resolved: [ResolvedEntry], app: AppIdentity, services: Set<AssociationService>?) async
        -> [AssociationFileRequest: Retrieval]
    {
        var requests: [AssociationFileRequest] = []
        var seen = Set<AssociationFileRequest>()
        for item in resolved where item.active {
            guard let domain = item.domain else { continue }
            if let services, !services.contains(domain.service) { continue }
            if domain.service == .applinks, app.entitlements.webBrowser { continue }
            let request = AssociationFileRequest(
                host: domain.host, port: domain.port, route: item.route, hostName: domain.hostName)
            if seen.insert(request).inserted { requests.append(request) }
        }
        var results: [AssociationFileRequest: Retrieval] = [:]
        await withTaskGroup(of: (AssociationFileRequest, Retrieval).self) { group in
            var pending = requests[...]
            var running = 0
            while running < Self.maximumConcurrentRetrievals, let request = pending.popFirst() {
                group.addTask { (request, await self.retrieve(request)) }
                running += 1
            }
            while let (request, retrieval) = await group.next() {
                results[request] = retrieval
                onRetrieval?(
                    RetrievalProgress(
                        completed: results.count, total: requests.count, authority: request.authority,
                        usable: retrieval.file != nil))
                if let next = pending.popFirst() {
                    group.addTask { (next, await self.retrieve(next)) }
                }
            }
        }
        return results
    }

    /// How many origins are retrieved at the same time.
    static let maximumConcurrentRetrievals = 8

    /// Completion-handler twin of ``evaluate(app:services:)``: runs it in a `Task`, calls
    /// `completion` exactly once, and returns the task so the caller can cancel.
    @discardableResult
    public func evaluate(
        app: AppIdentity, services: Set<AssociationService>? = nil,
        completion: @escaping @Sendable (TrustReport) -> Void
    ) -> Task<Void, Never> {
        Task { completion(await evaluate(app: app, services: services)) }
    }

    /// Whether `file` lists `appID` for `service`, with a person-readable reason (AD-6.2).
    package static func decide(file: AssociationFile, appID: String, service: AssociationService)
        -> (trusted: Bool, reason: String)
    {
        if service == .applinks {
            guard let applinks = file.applinks else {
                let hint =
                    file.root["webcredentials"] != nil
                    ? " (a webcredentials listing gives no applinks association)" : ""
                return (false, "the file has no applinks section\(hint)")
            }
            if let detail = applinks.details.first(where: { $0.appIDs.contains(appID) }) {
                return (true, "\(detail.path) applies to \(appID)")
            }
            let listed = applinks.allAppIDs
            return (false, "no applinks detail applies to \(appID); \(Self.describe(listed))")
        }
        let name = service.rawValue
        guard file.root[name] != nil else { return (false, "the file has no \(name) section") }
        guard let apps = file.apps(for: service) else {
            return (false, "\(name).apps is missing or not an array")
        }
        if apps.contains(appID) { return (true, "\(name).apps lists \(appID)") }
        let nearMiss = apps.first { $0.lowercased() == appID.lowercased() }
        var reason = "\(name).apps does not list \(appID); \(Self.describe(apps))"
        if let nearMiss { reason += " (app IDs compare case-sensitively: '\(nearMiss)')" }
        return (false, reason)
    }

    private static func describe(_ apps: [String]) -> String {
        if apps.isEmpty { return "it lists no apps" }
        let shown = apps.prefix(5).joined(separator: ", ")
        return "it lists \(shown)\(apps.count > 5 ? " and \(apps.count - 5) more" : "")"
    }
}
