import SWCredAssociation
import SWCredCore
import SWCredRetrieval

/// The entitlement path of the bulk form of `match` (`spec/cli.md`: "With `--entitlements` and a
/// source (`--aasa-dir`, `--direct`, `--cdn`), each host's file is obtained once and reused").
///
/// Every URL is decided as ``LinkResolver`` decides it for the single form (section 8 with
/// section 7): a URL with a non-default port, or an app registered as a web browser, opens
/// nothing; otherwise the active `applinks` entries covering the host are consulted in
/// ``DomainLookup`` order (exact entry first, then the longest wildcard, mode gating applied), each
/// through its `aasaHost`'s file, and the first `match` or `exclude` decides. What differs is the
/// cost: the entries covering a host are looked up once per host, and each (origin, route) file
/// is retrieved, parsed and compiled (``ApplinksAutomaton``) once per run; both caches are
/// bounded like the `--aasa-dir` one (``MatchCommand/maximumHosts``).
///
/// **Decision (a file that cannot be obtained).** As in `verify`, a failed retrieval is a
/// result, not the end of the run: it is warned about once on stderr (with Apple's error domain
/// and code), and every URL that needed that file and opened nothing gets `no_match` (what a
/// device does without the file) plus an `error` object naming the failure (`fetchRefused` for a
/// retrieval rule: redirect, status, size; `fetchFailed` for the network: TLS, timeout; or the
/// parse error's code). The run goes on, the summary counts those URLs as `unretrieved`, and the
/// exit code stays the one cli.md gives the bulk form: 0 when the run finished (1 under a failed
/// `--expect`, 65 after an invalid line). Exit 69 is not used here, because the run did finish and
/// `verify`, the other command that fetches many files, reports a failed fetch in its output too.
extension MatchCommand {
    /// One entitlement entry covering a URL host: its text, the file request of its `aasaHost`,
    /// and that file once obtained (so a URL on a known host hashes nothing).
    final class TrustCandidate {
        let entry: String
        let aasaHost: String
        let request: AssociationFileRequest
        var file: HostFile?

        init(entry: String, aasaHost: String, request: AssociationFileRequest) {
            self.entry = entry
            self.aasaHost = aasaHost
            self.request = request
        }
    }

    /// What the entitlement path decided for one URL.
    struct TrustDecision {
        var result: ApplinksMatch
        var ruleIndex: Int?
        /// The file that decided (its rule texts are cached), if any.
        var file: HostFile?
        var entitlement: String?
        /// Why a file this URL needed could not be used, when the URL opened nothing.
        var problem: SWCredError?
    }

    /// The bounded caches of the entitlement path and the decision procedure.
    final class TrustResolver {
        let appID: String
        let evaluator: TrustEvaluator
        let resolved: [ResolvedEntry]
        let browser: Bool
        /// The entries covering each URL host seen, in consultation order.
        private var candidates: [String: [TrustCandidate]] = [:]
        /// The host of the previous URL and its entries (lists run long on one host).
        private var lastHost: (host: String, candidates: [TrustCandidate])?
        /// Each (origin, route) file retrieved so far.
        private(set) var files: [AssociationFileRequest: HostFile] = [:]
        /// Files dropped from ``files`` when it was full (their unused rules are still reported).
        private(set) var retired: [(String, HostFile)] = []
        /// Retrievals made (one per distinct file while the cache holds).
        private(set) var retrievals = 0

        init(app: AppIdentity, evaluator: TrustEvaluator) {
            appID = app.appID
            self.evaluator = evaluator
            resolved = EntitlementResolver.resolve(app.entitlements, device: evaluator.device)
            browser = app.entitlements.webBrowser
        }

        /// Decides `url` for the app (``LinkResolver/decide(_:app:)``'s procedure).
        func decide(_ url: LinkURLView, console: Console) async -> TrustDecision {
            var decision = TrustDecision(result: ApplinksMatch(outcome: .noMatch, appID: appID, rule: nil))
            if browser || url.hasNonDefaultPort { return decision }
            for candidate in covering(url.host) {
                if decision.entitlement == nil { decision.entitlement = candidate.entry }
                let file = await file(for: candidate, console: console)
                guard let automaton = file.automaton else {
                    if decision.problem == nil { decision.problem = file.problem }
                    continue
                }
                guard file.associated else { continue }
                let result = automaton.match(url, appID: appID)
                if result.outcome != .noMatch {
                    // AD-8.5 Decision: an exclude at the exact host is final, like a match.
                    return TrustDecision(
                        result: result, ruleIndex: automaton.lastDecidingRule, file: file,
                        entitlement: candidate.entry, problem: nil)
                }
            }
            return decision
        }

        /// The entries covering `host` (``DomainLookup/candidates(for:among:service:port:)``), cached.
        private func covering(_ host: String) -> [TrustCandidate] {
            if let lastHost, lastHost.host == host { return lastHost.candidates }
            if let known = candidates[host] {
                lastHost = (host, known)
                return known
            }
            let found = DomainLookup.candidates(for: host, among: resolved).compactMap { entry -> TrustCandidate? in
                guard let domain = entry.domain else { return nil }
                return TrustCandidate(
                    entry: entry.entry.raw, aasaHost: domain.aasaHost,
                    request: AssociationFileRequest(
                        host: domain.host, port: domain.port, route: entry.route, hostName: domain.hostName))
            }
            if candidates.count >= MatchCommand.maximumHosts { candidates.removeAll() }
            candidates[host] = found
            lastHost = (host, found)
            return found
        }

        /// The file of `candidate`'s `aasaHost`: retrieved, parsed and compiled the first time only.
        private func file(for candidate: TrustCandidate, console: Console) async -> HostFile {
            if let known = candidate.file { return known }
            if let known = files[candidate.request] {
                candidate.file = known
                return known
            }
            retrievals += 1
            let retrieval = await evaluator.retrieve(candidate.request)
            for diagnostic in retrieval.retrieved.diagnostics where diagnostic.severity != .note {
                console.warn("\(candidate.aasaHost): \(diagnostic.message)")
            }
            let hostFile: HostFile
            if let file = retrieval.file {
                for diagnostic in file.diagnostics where diagnostic.severity != .note {
                    console.warn("\(candidate.aasaHost): \(diagnostic.message)")
                }
                let associated = file.lists(appID: appID, for: .applinks)
                if !associated {
                    console.warn("\(candidate.aasaHost)'s file does not associate \(appID)")
                }
                hostFile = HostFile(
                    automaton: ApplinksAutomaton(file: file), aasaHost: candidate.aasaHost, associated: associated)
            } else {
                let problem = Self.problem(retrieval, request: candidate.request)
                console.warn(problem.message)
                hostFile = HostFile(automaton: nil, aasaHost: candidate.aasaHost, problem: problem)
            }
            if files.count >= MatchCommand.maximumHosts {
                retired.append(contentsOf: files.map { ($0.key.authority, $0.value) }.prefix(16))
                files.removeAll()
            }
            files[candidate.request] = hostFile
            candidate.file = hostFile
            return hostFile
        }

        /// The `NSURLErrorDomain` codes of network failures (timeout, no host, no connection, TLS
        /// trust and handshake): those `RetrievalFailure` marks `isNetworkFailure`, as `fetch` tells
        /// `fetchFailed` from `fetchRefused`. Other codes there (-1103 too large, -1016 undecodable,
        /// -1002 not https) are retrieval rules.
        static let networkFailureCodes: Set<Int> = [-1001, -1003, -1004, -1005, -1009, -1200, -1202]

        /// The error of a retrieval without a usable file: `fetchFailed` for the network (or a source
        /// that could not run), `malformedAASA` for a body that does not parse, `fetchRefused` for a
        /// retrieval rule (redirect, status, size, CDN refusal, a missing `--aasa-dir` folder).
        static func problem(_ retrieval: TrustEvaluator.Retrieval, request: AssociationFileRequest) -> SWCredError {
            let message = retrieval.problem ?? "could not retrieve the file for \(request.authority)"
            if retrieval.retrieved.body != nil { return SWCredError(.malformedAASA, message) }
            guard let failure = retrieval.retrieved.failure else { return SWCredError(.fetchFailed, message) }
            switch (failure.domain, failure.code) {
            case ("NSURLErrorDomain", let code) where networkFailureCodes.contains(code):
                return SWCredError(.fetchFailed, message)
            case ("swcred", -1): return SWCredError(.fetchFailed, message)
            default: return SWCredError(.fetchRefused, message)
            }
        }

        /// Every file kept or retired, for the summary's unused rules (sorted by origin).
        var allFiles: [(String, HostFile)] {
            files.sorted { ($0.key.authority, $0.key.route.rawValue) < ($1.key.authority, $1.key.route.rawValue) }
                .map { ($0.key.authority, $0.value) } + retired
        }
    }
}
