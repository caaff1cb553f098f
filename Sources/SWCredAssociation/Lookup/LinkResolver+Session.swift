extension LinkResolver {
    /// One (origin, route) file as a ``Session`` holds it: retrieved, parsed and compiled once.
    ///
    /// Not `Sendable`: the compiled ``ApplinksAutomaton`` is one thread's at a time.
    package final class CompiledFile {
        /// The file's origin and route.
        package let request: AssociationFileRequest
        /// The host whose file this is (an entry's `aasaHost`).
        package let aasaHost: String
        /// The compiled rules; `nil` when no file could be obtained or parsed.
        package let automaton: ApplinksAutomaton?
        /// Whether the file lists the app for `applinks` (an unlisted file decides nothing).
        package let associated: Bool
        /// The retrieval, with the raw failure and the parse problem when there is no automaton.
        package let retrieval: TrustEvaluator.Retrieval
        /// What the caller keeps with this file for as long as the session does (bulk `match`
        /// keeps each rule's JSON text here).
        package var attachment: AnyObject?

        init(request: AssociationFileRequest, aasaHost: String, retrieval: TrustEvaluator.Retrieval, appID: String) {
            self.request = request
            self.aasaHost = aasaHost
            self.retrieval = retrieval
            if let file = retrieval.file {
                automaton = ApplinksAutomaton(file: file)
                associated = file.lists(appID: appID, for: .applinks)
            } else {
                automaton = nil
                associated = false
            }
        }
    }

    /// What a ``Session`` decided for one URL.
    package struct SessionDecision {
        /// The outcome, the app and the deciding rule.
        package var result: ApplinksMatch
        /// The deciding rule's index in ``CompiledFile/automaton``'s `allRules`.
        package var ruleIndex: Int?
        /// The file that decided, if any.
        package var file: CompiledFile?
        /// The entry (as written) whose file decided, or the first consulted.
        package var entitlement: String?
        /// The `aasaHost` of that entry.
        package var aasaHost: String?
        /// The first file this URL needed that could not be used (no file, or one that does not
        /// parse), when the URL opened nothing.
        package var unusable: CompiledFile?
        /// What happened on the way; recorded only by a session made with `recordsDiagnostics`.
        package var diagnostics: [Diagnostic] = []
    }

    /// Decides many URLs for one app (the bulk form of `swcred match`): the entries covering a
    /// host are looked up once per host, and each (origin, route) file is retrieved, parsed and
    /// compiled once per session; both caches are bounded by ``maximumHosts``. Every URL is
    /// decided by the procedure of ``LinkResolver/decide(_:app:)`` (AD-8 with section 7): a URL
    /// with a non-default port, or an app registered as a web browser, opens nothing; otherwise
    /// the covering entries are consulted in ``DomainLookup`` order, each through its file, and
    /// the first `match` or `exclude` decides (AD-8.5 Decision: an exclude at the exact host is
    /// final, like a match).
    ///
    /// Not `Sendable`: use a session from one task.
    package final class Session {
        /// The app.
        package let app: AppIdentity
        /// Where files come from.
        package let evaluator: TrustEvaluator
        /// Most hosts (and files) kept; past it the caches start again (files dropped are kept in
        /// ``retired`` for their unused rules).
        package let maximumHosts: Int
        /// Told once for each file the session retrieves, as it is compiled.
        package var onFile: ((CompiledFile) -> Void)?

        private let resolved: [ResolvedEntry]
        private let recordsDiagnostics: Bool
        /// The entries covering each URL host seen, in consultation order.
        private var candidates: [String: [Candidate]] = [:]
        /// The host of the previous URL and its entries (lists run long on one host).
        private var lastHost: (host: String, candidates: [Candidate])?
        /// Each (origin, route) file retrieved so far.
        package private(set) var files: [AssociationFileRequest: CompiledFile] = [:]
        /// Files dropped from ``files`` when it was full.
        package private(set) var retired: [CompiledFile] = []
        /// Retrievals made (one per distinct file while the cache holds).
        package private(set) var retrievals = 0

        /// One entry covering a host, and its file once obtained (so a URL on a known host
        /// hashes nothing).
        private final class Candidate {
            let entry: String
            let aasaHost: String
            let request: AssociationFileRequest
            var file: CompiledFile?

            init(entry: String, aasaHost: String, request: AssociationFileRequest) {
                self.entry = entry
                self.aasaHost = aasaHost
                self.request = request
            }
        }

        /// Creates a session.
        /// - Parameters:
        ///   - recordsDiagnostics: whether each decision carries the notes and warnings of
        ///     ``LinkResolver/decide(_:app:)`` (a bulk run reports files once, through ``onFile``).
        package init(
            app: AppIdentity, evaluator: TrustEvaluator, maximumHosts: Int = 4_096, recordsDiagnostics: Bool = false
        ) {
            self.app = app
            self.evaluator = evaluator
            self.maximumHosts = max(1, maximumHosts)
            self.recordsDiagnostics = recordsDiagnostics
            resolved = EntitlementResolver.resolve(app.entitlements, device: evaluator.device)
        }

        /// Decides `url`.
        package func decide(_ url: LinkURLView) async -> SessionDecision {
            await decide(host: url.host, hasNonDefaultPort: url.hasNonDefaultPort) { $0.match(url, appID: $1) }
        }

        /// Decides `url`.
        package func decide(_ url: LinkURL) async -> SessionDecision {
            await decide(host: url.host, hasNonDefaultPort: url.hasNonDefaultPort) { $0.match(url, appID: $1) }
        }

        /// Every file kept or retired, sorted by origin then route (kept files first).
        package var allFiles: [CompiledFile] {
            files.values.sorted {
                ($0.request.authority, $0.request.route.rawValue) < ($1.request.authority, $1.request.route.rawValue)
            } + retired
        }

        // MARK: The procedure

        private func decide(
            host: String, hasNonDefaultPort: Bool, match: (ApplinksAutomaton, String) -> ApplinksMatch
        ) async -> SessionDecision {
            let appID = app.appID
            var decision = SessionDecision(result: ApplinksMatch(outcome: .noMatch, appID: appID, rule: nil))
            if app.entitlements.webBrowser {
                note(&decision, .error("Apps registered as web browsers cannot use applinks (TN3155)"))
                return decision
            }
            if hasNonDefaultPort {
                note(&decision, .note("a URL with a non-default port never opens an app (AD-7.1)"))
                return decision
            }
            let covering = covering(host)
            if covering.isEmpty { note(&decision, .note("no active applinks entry covers \(host)")) }
            for candidate in covering {
                if decision.entitlement == nil {
                    decision.entitlement = candidate.entry
                    decision.aasaHost = candidate.aasaHost
                }
                let file = await file(for: candidate)
                guard let automaton = file.automaton else {
                    if decision.unusable == nil { decision.unusable = file }
                    note(&decision, .warning(file.retrieval.problem ?? "no file for \(candidate.aasaHost)"))
                    continue
                }
                guard file.associated else {
                    note(&decision, .warning("\(candidate.aasaHost)'s file does not associate \(appID)"))
                    continue
                }
                let result = match(automaton, appID)
                if result.outcome != .noMatch {
                    decision.result = result
                    decision.ruleIndex = automaton.lastDecidingRule
                    decision.file = file
                    decision.entitlement = candidate.entry
                    decision.aasaHost = candidate.aasaHost
                    decision.unusable = nil
                    return decision
                }
                note(&decision, .note("no rule in \(candidate.aasaHost)'s file matches"))
            }
            return decision
        }

        private func note(_ decision: inout SessionDecision, _ diagnostic: @autoclosure () -> Diagnostic) {
            if recordsDiagnostics { decision.diagnostics.append(diagnostic()) }
        }

        /// The entries covering `host` (``DomainLookup/candidates(for:among:service:port:)``), cached.
        private func covering(_ host: String) -> [Candidate] {
            if let lastHost, lastHost.host == host { return lastHost.candidates }
            if let known = candidates[host] {
                lastHost = (host, known)
                return known
            }
            let found = DomainLookup.candidates(for: host, among: resolved).compactMap { entry -> Candidate? in
                guard let domain = entry.domain else { return nil }
                return Candidate(
                    entry: entry.entry.raw, aasaHost: domain.aasaHost,
                    request: AssociationFileRequest(
                        host: domain.host, port: domain.port, route: entry.route, hostName: domain.hostName))
            }
            if candidates.count >= maximumHosts { candidates.removeAll() }
            candidates[host] = found
            lastHost = (host, found)
            return found
        }

        /// The file of `candidate`'s `aasaHost`: retrieved, parsed and compiled the first time only.
        private func file(for candidate: Candidate) async -> CompiledFile {
            if let known = candidate.file { return known }
            if let known = files[candidate.request] {
                candidate.file = known
                return known
            }
            retrievals += 1
            let retrieval = await evaluator.retrieve(candidate.request)
            let file = CompiledFile(
                request: candidate.request, aasaHost: candidate.aasaHost, retrieval: retrieval, appID: app.appID)
            onFile?(file)
            if files.count >= maximumHosts {
                retired.append(contentsOf: files.values.prefix(16))
                files.removeAll()
            }
            files[candidate.request] = file
            candidate.file = file
            return file
        }
    }
}
