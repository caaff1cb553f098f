package import SWCredCore

/// The engine of bulk `match` (`spec/cli.md`, "swcred match (--urls FILE|- | --sitemap FILE)"):
/// every line of a URL list or sitemap decided as the single form decides it, one ``Entry`` per
/// line, and the run's ``BulkMatchSummary``. Input streams; each host's file is read and compiled
/// once (``ApplinksAutomaton``), the file cache bounded by ``maximumHosts``.
///
/// The caller pulls entries with ``next()`` and prints them; ``finish()`` ends the run with the
/// summary's unused rules. Files' warnings go to the `warn` closure given at creation, once per file.
///
/// The entitlement path (``Files/entitlements(_:_:)``) decides through a ``LinkResolver/Session``,
/// the AD-8 procedure of ``LinkResolver/decide(_:app:)`` (section 8 with section 7).
///
/// **Decision (a file that cannot be obtained, entitlement path).** As in `verify`, a failed
/// retrieval is a result, not the end of the run: it is warned about once (with Apple's error
/// domain and code), and every URL that needed that file and opened nothing gets `no_match`
/// (what a device does without the file) plus a ``Result/problem`` naming the failure
/// (`fetchRefused` for a retrieval rule: redirect, status, size; `fetchFailed` for the network:
/// TLS, timeout; or the parse error's code). The run goes on and the summary counts those URLs
/// as `unretrieved`.
///
/// Not `Sendable`: use a matcher from one task. Its per-URL state is `@exclusivity(unchecked)`:
/// only its own methods touch it, one at a time, and the run-time access checks were 120
/// instructions per URL (about 1 % of a run).
package final class BulkMatcher {
    /// Most hosts whose files are kept (a list spanning more hosts reads files again).
    package static let maximumHosts = 4_096

    /// Where the file deciding each URL comes from.
    package enum Files {
        /// One file decides every URL (`--aasa FILE`), for `appID`.
        case file(AssociationFile, appID: String?)
        /// Each URL host's own file from a directory of web roots (`--aasa-dir DIR`), for
        /// `appID`; a missing or bad file decides nothing.
        case directory(DirectoryAssociationSource, appID: String?)
        /// The app's entries choose each host's file from the evaluator's source, as a device
        /// does (`--entitlements` with `--aasa-dir`, `--direct` or `--cdn`).
        case entitlements(AppIdentity, TrustEvaluator)
    }

    /// The file deciding the URLs of one host.
    package final class HostFile {
        package let automaton: ApplinksAutomaton?
        package let aasaHost: String?
        /// Entitlement path: whether the file lists the app for `applinks` (an unlisted file decides nothing).
        package let associated: Bool
        /// Entitlement path: why there is no file (the per-URL `error`).
        package let problem: SWCredError?
        /// The printed text of each rule, kept by the caller the first time the rule decides.
        package var ruleJSON: [String?]

        package init(
            automaton: ApplinksAutomaton?, aasaHost: String?, associated: Bool = true, problem: SWCredError? = nil
        ) {
            self.automaton = automaton
            self.aasaHost = aasaHost
            self.associated = associated
            self.problem = problem
            ruleJSON = [String?](repeating: nil, count: automaton?.allRules.count ?? 0)
        }
    }

    /// One decided URL.
    package struct Result {
        /// The input line (1-based).
        package var line: Int
        /// The URL as written.
        package var url: String
        /// The outcome, the app and the deciding rule.
        package var result: ApplinksMatch
        /// The deciding rule's index in ``file``'s automaton (its `allRules`).
        package var ruleIndex: Int?
        /// The file that decided, if any.
        package var file: HostFile?
        /// Entitlement path: the entry (as written) whose file decided, or the first consulted.
        package var entitlement: String?
        /// Entitlement path: why a file this URL needed could not be used, when it opened nothing.
        package var problem: SWCredError?
    }

    /// One line of the input.
    package enum Entry {
        /// A line that is not a usable URL (too long, not UTF-8, not an http(s) URL).
        case invalid(line: Int, error: SWCredError)
        /// A decided URL.
        case result(Result)
    }

    /// The app the URLs are decided for, if known.
    package let appID: String?
    /// The outcome every URL should have (`--expect`), if any.
    package let expected: MatchOutcome?
    /// The counts so far (unused rules once ``finish()`` ran).
    @exclusivity(unchecked) package private(set) var summary = BulkMatchSummary()
    /// Files retrieved on the entitlement path.
    package var retrievals: Int { session?.retrievals ?? 0 }
    /// URLs decided without the outcome ``expected`` (0 without an expectation).
    package var unexpected: Int { expected.map { summary.total - summary.count(of: $0) } ?? 0 }
    /// The sitemap reader's warnings (limits exceeded, child sitemaps skipped).
    package var readerWarnings: [String] { (reader as? SitemapReader)?.warnings ?? [] }

    @exclusivity(unchecked) private var reader: any LinkListReading
    private let warn: (String) -> Void
    private let single: HostFile?
    private let source: DirectoryAssociationSource?
    private let session: LinkResolver.Session?
    @exclusivity(unchecked) private var hosts: [String: HostFile] = [:]
    /// The host of the previous URL and its file (lists run long on one host): no hashing then.
    @exclusivity(unchecked) private var lastHost: (host: String, file: HostFile)?
    private var retired: [(String, HostFile)] = []
    /// A URL ``nextReady()`` read but could not decide without reading its host's file.
    @exclusivity(unchecked) private var pending: (line: Int, text: String, view: LinkURLView)?

    /// Creates a run over `lines`.
    /// - Parameters:
    ///   - expecting: the outcome every URL should have (``unexpected`` counts the others).
    ///   - warn: told each file's warnings and failures, once per file.
    package init(
        lines: any LinkListReading, files: Files, expecting: MatchOutcome? = nil,
        warn: @escaping (String) -> Void
    ) {
        reader = lines
        expected = expecting
        self.warn = warn
        switch files {
        case .file(let file, let appID):
            for diagnostic in file.diagnostics where diagnostic.severity != .note {
                warn(diagnostic.labelledMessage)
            }
            self.appID = appID
            single = HostFile(automaton: ApplinksAutomaton(file: file), aasaHost: nil)
            source = nil
            session = nil
        case .directory(let directory, let appID):
            self.appID = appID
            single = nil
            source = directory
            session = nil
        case .entitlements(let app, let evaluator):
            appID = app.appID
            single = nil
            source = nil
            let session = LinkResolver.Session(app: app, evaluator: evaluator, maximumHosts: Self.maximumHosts)
            // Each file's view (warnings said once, rule texts kept) stays with it.
            session.onFile = { file in file.attachment = Self.hostFile(compiling: file, appID: app.appID, warn: warn) }
            self.session = session
        }
    }

    /// The next line decided, or `nil` at the end of the input.
    ///
    /// A loop asks ``nextReady()`` first and this only when that returns `nil`: most lines of a
    /// list are on hosts already read and never suspend (an `async` call per URL measured about
    /// 1,200 instructions, a tenth of a run).
    ///
    /// - Throws: the reader's error when the input cannot be read on (the run ends there).
    package func next() async throws -> Entry? {
        let number: Int
        let text: String
        let view: LinkURLView
        if let pending {
            self.pending = nil
            (number, text, view) = pending
        } else {
            guard let entry = try reader.next() else { return nil }
            switch entry {
            case .invalid(let line, let error):
                summary.invalid += 1
                return .invalid(line: line, error: error)
            case .url(let line, let url):
                do {
                    view = try LinkURLView(url)
                } catch {
                    summary.invalid += 1
                    return .invalid(line: line, error: error)
                }
                (number, text) = (line, url)
            }
        }
        if let session {
            let decided = await session.decide(view)
            let problem = decided.unusable.flatMap(Self.hostFile(of:))?.problem
            summary.count(decided.result)
            if problem != nil { summary.unretrieved += 1 }
            return .result(
                Result(
                    line: number, url: text, result: decided.result, ruleIndex: decided.ruleIndex,
                    file: decided.file.flatMap(Self.hostFile(of:)), entitlement: decided.entitlement,
                    problem: problem))
        }
        return decide(number, text, view, with: try await file(for: view.host))
    }

    /// The next line decided without suspending, or `nil` when it needs ``next()``: at the end of
    /// the input, on the entitlement path, and for a URL whose host's file is not read yet (that
    /// line is kept for ``next()``). A loop takes `try nextReady() ?? (try await next())`.
    ///
    /// - Throws: the reader's error when the input cannot be read on.
    package func nextReady() throws -> Entry? {
        guard session == nil, pending == nil, let entry = try reader.next() else { return nil }
        switch entry {
        case .invalid(let line, let error):
            summary.invalid += 1
            return .invalid(line: line, error: error)
        case .url(let line, let url):
            let view: LinkURLView
            do {
                view = try LinkURLView(url)
            } catch {
                summary.invalid += 1
                return .invalid(line: line, error: error)
            }
            guard let hostFile = cachedFile(for: view.host) else {
                pending = (line, url, view)
                return nil
            }
            return decide(line, url, view, with: hostFile)
        }
    }

    /// `url` decided by `hostFile` (the file and directory paths).
    private func decide(_ line: Int, _ url: String, _ view: LinkURLView, with hostFile: HostFile) -> Entry {
        let result: ApplinksMatch
        var ruleIndex: Int?
        if let automaton = hostFile.automaton {
            result = automaton.match(view, appID: appID)
            ruleIndex = automaton.lastDecidingRule
        } else {
            result = ApplinksMatch(outcome: .noMatch, appID: appID, rule: nil)
        }
        summary.count(result)
        return .result(Result(line: line, url: url, result: result, ruleIndex: ruleIndex, file: hostFile))
    }

    /// Ends the run: the summary with the rules no URL reached, file by file (the `--aasa` file,
    /// then the kept hosts sorted, then the retired ones, then the entitlement path's files by origin).
    package func finish() -> BulkMatchSummary {
        var files: [(String?, HostFile)] = []
        if let single { files.append((nil, single)) }
        files += hosts.sorted { $0.key < $1.key }.map { (Optional($0.key), $0.value) }
        files += retired.map { (Optional($0.0), $0.1) }
        for file in session?.allFiles ?? [] {
            if let hostFile = Self.hostFile(of: file) { files.append((file.request.authority, hostFile)) }
        }
        summary.unusedRules = files.flatMap { host, file in
            (file.automaton?.unusedRules ?? []).map { BulkMatchSummary.UnusedRule(host: host, rule: $0) }
        }
        return summary
    }

    // MARK: The file and directory paths

    /// The file deciding `host`'s URLs when it is at hand: the single file, or the host's when
    /// it was read already.
    private func cachedFile(for host: String) -> HostFile? {
        if let single { return single }
        if let lastHost, lastHost.host == host { return lastHost.file }
        guard let known = hosts[host] else { return nil }
        lastHost = (host, known)
        return known
    }

    /// The file deciding `host`'s URLs: the single file, or the host's, read the first time only.
    private func file(for host: String) async throws -> HostFile {
        if let known = cachedFile(for: host) { return known }
        let hostFile = try await load(host)
        if hosts.count >= Self.maximumHosts {
            retired.append(contentsOf: hosts.map { ($0.key, $0.value) }.prefix(16))
            hosts.removeAll()
        }
        hosts[host] = hostFile
        lastHost = (host, hostFile)
        return hostFile
    }

    /// Reads and compiles `host`'s file from the directory; a missing or bad file decides nothing.
    private func load(_ host: String) async throws -> HostFile {
        guard let source else { return HostFile(automaton: nil, aasaHost: host) }
        let retrieved = try await source.retrieve(AssociationFileRequest(host: host, port: nil))
        for diagnostic in retrieved.diagnostics where diagnostic.severity != .note {
            warn(diagnostic.labelledMessage)
        }
        guard let body = retrieved.body else {
            if let failure = retrieved.failure { warn("\(host): \(failure.description)") }
            return HostFile(automaton: nil, aasaHost: host)
        }
        do {
            let file = try AssociationFile.parse(body)
            for diagnostic in file.diagnostics where diagnostic.severity != .note {
                warn("\(host): \(diagnostic.labelledMessage)")
            }
            return HostFile(automaton: ApplinksAutomaton(file: file), aasaHost: host)
        } catch {
            warn("\(host): \(error.message)")
            return HostFile(automaton: nil, aasaHost: host)
        }
    }

    // MARK: The entitlement path

    private static func hostFile(of file: LinkResolver.CompiledFile) -> HostFile? { file.attachment as? HostFile }

    /// The view of a file the session just compiled; its warnings are said here, once.
    private static func hostFile(
        compiling file: LinkResolver.CompiledFile, appID: String, warn: (String) -> Void
    ) -> HostFile {
        let retrieval = file.retrieval
        for diagnostic in retrieval.retrieved.diagnostics where diagnostic.severity != .note {
            warn("\(file.aasaHost): \(diagnostic.labelledMessage)")
        }
        guard let parsed = retrieval.file else {
            let problem = retrieval.error(for: file.request)
            warn(problem.message)
            return HostFile(automaton: nil, aasaHost: file.aasaHost, problem: problem)
        }
        for diagnostic in parsed.diagnostics where diagnostic.severity != .note {
            warn("\(file.aasaHost): \(diagnostic.labelledMessage)")
        }
        if !file.associated {
            warn("\(file.aasaHost)'s file does not associate \(appID)")
        }
        return HostFile(automaton: file.automaton, aasaHost: file.aasaHost, associated: file.associated)
    }
}
