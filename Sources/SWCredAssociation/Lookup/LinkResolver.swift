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
///
/// One URL: ``decide(_:app:)``. Many URLs (a sitemap, a list): a ``Session``, which looks the
/// covering entries up once per host and retrieves and compiles each file once. Both run the one
/// procedure of ``Session``.
public struct LinkResolver: Sendable {
    /// Where files come from.
    public var evaluator: TrustEvaluator

    /// Creates a resolver over a trust evaluator's source, device and limits.
    public init(evaluator: TrustEvaluator) { self.evaluator = evaluator }

    /// Decides `url` for `app`.
    public func decide(_ url: LinkURL, app: AppIdentity) async -> LinkDecision {
        let session = Session(app: app, evaluator: evaluator, recordsDiagnostics: true)
        let decided = await session.decide(url)
        return LinkDecision(
            outcome: decided.result.outcome, appID: app.appID, entitlement: decided.entitlement,
            aasaHost: decided.aasaHost, rule: decided.result.rule, diagnostics: decided.diagnostics)
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
