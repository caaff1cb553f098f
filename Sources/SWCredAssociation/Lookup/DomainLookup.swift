import SWCredCore

/// Domain lookup (section 8): which entitlement entries cover a host, in the order their files are
/// consulted.
public enum DomainLookup {
    /// The entries of `service` that cover `host`, in consultation order (AD-8.1 to AD-8.5): the
    /// exact entry first (if any), then the longest covering wildcard (only one, AD-8.5 Decision).
    ///
    /// - Parameters:
    ///   - host: lowercase ASCII host of the URL.
    ///   - entries: resolved entries; only `active` ones are considered (mode gating, AD-2.6).
    ///   - service: the service, normally `applinks`.
    ///   - port: the entry port to match; `nil` for entries without a port.
    /// - Returns: the exact entry (if any), then the longest covering wildcard (if any).
    public static func candidates(
        for host: String, among entries: [ResolvedEntry],
        service: AssociationService = .applinks, port: Int? = nil
    ) -> [ResolvedEntry] {
        let host = HostName.lowercasedASCII(host)
        let usable = entries.filter { item in
            guard item.active, let domain = item.domain else { return false }
            return domain.service == service && domain.port == port && domain.covers(host: host)
        }
        var result: [ResolvedEntry] = []
        if let exact = usable.first(where: { $0.domain?.wildcard == false }) { result.append(exact) }
        // AD-8.3: the longest wildcard wins.
        let wildcards = usable.filter { $0.domain?.wildcard == true }
        if let longest = wildcards.max(by: { ($0.domain?.host.count ?? 0) < ($1.domain?.host.count ?? 0) }) {
            result.append(longest)
        }
        return result
    }
}

/// What opening a URL does for an app, with the entry and file that decided.
public struct LinkDecision: Sendable, Hashable {
    /// The outcome.
    public var outcome: MatchOutcome
    /// The app.
    public var appID: String
    /// The entitlement entry (as written) whose file decided, or the first consulted on `no_match`;
    /// `nil` when no entry covers the host.
    public var entitlement: String?
    /// The host whose file was used.
    public var aasaHost: String?
    /// The deciding rule.
    public var rule: MatchedRule?
    /// What happened on the way (files missing, not associated, fallbacks).
    public var diagnostics: [Diagnostic]
}

/// Decides universal-link opening for an app with entitlements, through a source (section 8 with
/// section 7): the exact entry's file first; only when that yields `no_match`, or the exact entry
/// is absent or not associated, the longest covering wildcard with its root's file (AD-8.5).
public struct LinkResolver: Sendable {
    /// Where files come from.
    public var evaluator: TrustEvaluator

    /// Creates a resolver over a trust evaluator's source, device and limits.
    public init(evaluator: TrustEvaluator) { self.evaluator = evaluator }

    /// Decides `url` for `app`.
    public func decide(_ url: LinkURL, app: AppIdentity) async -> LinkDecision {
        var decision = LinkDecision(
            outcome: .noMatch, appID: app.appID, entitlement: nil, aasaHost: nil, rule: nil,
            diagnostics: [])
        if app.entitlements.webBrowser {
            decision.diagnostics.append(.error("Apps registered as web browsers cannot use applinks (TN3155)"))
            return decision
        }
        if url.hasNonDefaultPort {
            decision.diagnostics.append(.note("a URL with a non-default port never opens an app (AD-7.1)"))
            return decision
        }
        let resolved = EntitlementResolver.resolve(app.entitlements, device: evaluator.device)
        let candidates = DomainLookup.candidates(for: url.host, among: resolved)
        guard !candidates.isEmpty else {
            decision.diagnostics.append(.note("no active applinks entry covers \(url.host)"))
            return decision
        }
        for candidate in candidates {
            guard let domain = candidate.domain else { continue }
            if decision.entitlement == nil {
                decision.entitlement = candidate.entry.raw
                decision.aasaHost = domain.aasaHost
            }
            let request = AssociationFileRequest(
                host: domain.host, port: domain.port, route: candidate.route, hostName: domain.hostName)
            let retrieval = await evaluator.retrieve(request)
            guard let file = retrieval.file else {
                decision.diagnostics.append(.warning(retrieval.problem ?? "no file for \(domain.aasaHost)"))
                continue
            }
            guard file.lists(appID: app.appID, for: .applinks) else {
                decision.diagnostics.append(.warning("\(domain.aasaHost)'s file does not associate \(app.appID)"))
                continue
            }
            let result = ApplinksMatcher(file: file).match(url, appID: app.appID)
            if result.outcome != .noMatch {
                // AD-8.5 Decision: an exclude at the exact host is final, like a match.
                decision.outcome = result.outcome
                decision.entitlement = candidate.entry.raw
                decision.aasaHost = domain.aasaHost
                decision.rule = result.rule
                return decision
            }
            decision.diagnostics.append(.note("no rule in \(domain.aasaHost)'s file matches"))
        }
        return decision
    }

    /// Completion-handler twin of ``decide(_:app:)``: runs it in a `Task`, calls `completion`
    /// exactly once, and returns the task so the caller can cancel.
    @discardableResult
    public func decide(
        _ url: LinkURL, app: AppIdentity,
        completion: @escaping @Sendable (LinkDecision) -> Void
    ) -> Task<Void, Never> {
        Task { completion(await decide(url, app: app)) }
    }
}
