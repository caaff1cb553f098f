public import ArgumentParser
import Foundation
import SWCredAssociation
import SWCredCore
import SWCredRetrieval

extension MatchOutcome: ExpressibleByArgument {}

/// The bulk form of `match` (`spec/cli.md`, "swcred match (--urls FILE|- | --sitemap FILE)"): every
/// URL of a list or sitemap decided as the single form decides it, one JSON line (or text line)
/// per URL and a closing summary. Input and output stream; each host's file is read and compiled
/// once (``ApplinksAutomaton``).
extension MatchCommand {
    /// The file deciding the URLs of one host.
    final class HostFile {
        let automaton: ApplinksAutomaton?
        let aasaHost: String?
        /// Entitlement path: whether the file lists the app for `applinks` (an unlisted file decides nothing).
        let associated: Bool
        /// Entitlement path: why there is no file (the per-URL `error`).
        let problem: SWCredError?
        /// `{"component":…}` text of each rule, built the first time it decides.
        var ruleJSON: [String?]

        init(automaton: ApplinksAutomaton?, aasaHost: String?, associated: Bool = true, problem: SWCredError? = nil) {
            self.automaton = automaton
            self.aasaHost = aasaHost
            self.associated = associated
            self.problem = problem
            ruleJSON = [String?](repeating: nil, count: automaton?.allRules.count ?? 0)
        }
    }

    /// Most hosts whose files are kept (a list spanning more hosts reads files again).
    static let maximumHosts = 4_096

    func executeBulk(_ console: Console) async throws -> ExitStatus {
        guard app.entitlements != nil, aasa == nil else { return try await runBulk(console, trust: nil) }
        // The entitlement path: each host's file from the source, decided as the device does.
        let identity = try app.identity()
        let device = app.device.settings
        return try await AssociationSources.with(try sourceSelection(), device: device) { fileSource in
            try await runBulk(
                console,
                trust: TrustResolver(
                    app: identity, evaluator: TrustEvaluator(source: fileSource, device: device), console: console))
        }
    }

    /// The bulk run over the URL list: `trust` for the entitlement path, else `--aasa` or `--aasa-dir`.
    private func runBulk(_ console: Console, trust: TrustResolver?) async throws -> ExitStatus {
        var reader: any LinkListReading
        if let urls {
            reader = try URLListReader(path: urls, standardInput: CommandContext.current.standardInput)
        } else if let sitemap {
            reader = try SitemapReader(path: sitemap)
        } else {
            throw SWCredError(.usage, "give a URL, --urls FILE or --sitemap FILE")
        }
        let appID = try trust?.appID ?? app.appID ?? app.loadEntitlements()?.applicationIdentifier
        var single: HostFile?
        if let aasa {
            let bytes = try FileInput.read(
                path: aasa, maximumBytes: AssociationFile.Limits().maximumBytes, tooLarge: .malformedAASA)
            let file = try AssociationFile.parse(bytes)
            for diagnostic in file.diagnostics where diagnostic.severity != .note {
                console.warn(diagnostic.labelledMessage)
            }
            single = HostFile(automaton: ApplinksAutomaton(file: file), aasaHost: nil)
        }
        let source = trust == nil ? aasaDir.map { DirectoryAssociationSource(root: $0) } : nil
        var hosts: [String: HostFile] = [:]
        /// The host of the previous URL and its file (lists run long on one host): no hashing then.
        var lastHost: (host: String, file: HostFile)?
        var retired: [(String, HostFile)] = []

        var output = BulkOutput(json: console.format == .json)
        var summary = BulkSummary()
        let progressLine = ProgressLine(progress)
        let clock = ContinuousClock()
        let started = clock.now
        var lastShown = started
        /// Flushes what was decided and, every half second at most, shows the rate.
        func showProgress() {
            output.flush()
            if progressLine.enabled, clock.now - lastShown > .milliseconds(500) {
                lastShown = clock.now
                let seconds = (clock.now - started) / .seconds(1)
                progressLine.show(
                    "match: \(summary.urls) URLs, \(Int(Double(summary.urls) / max(seconds, 0.001))) URLs/s")
            }
        }

        while let entry = try Self.next(&reader, flushing: &output) {
            switch entry {
            case .invalid(let line, let error):
                summary.invalid += 1
                output.invalid(line: line, error: error, console: console)
            case .url(let line, let text):
                let view: LinkURLView
                do {
                    view = try LinkURLView(text)
                } catch {
                    summary.invalid += 1
                    output.invalid(line: line, error: error, console: console)
                    continue
                }
                if let trust {
                    let decision = await trust.decide(view)
                    summary.count(decision.result)
                    if decision.problem != nil { summary.unretrieved += 1 }
                    output.result(
                        line: line, url: text, result: decision.result, ruleIndex: decision.ruleIndex,
                        file: decision.file, appID: appID, entitlement: decision.entitlement, error: decision.problem)
                    if summary.urls & 0xFFF == 0 { showProgress() }
                    continue
                }
                let hostFile: HostFile
                if let single {
                    hostFile = single
                } else if let lastHost, lastHost.host == view.host {
                    hostFile = lastHost.file
                } else if let known = hosts[view.host] {
                    hostFile = known
                    lastHost = (view.host, known)
                } else {
                    hostFile = try await load(view.host, source: source, console: console)
                    if hosts.count >= Self.maximumHosts {
                        retired.append(contentsOf: hosts.map { ($0.key, $0.value) }.prefix(16))
                        hosts.removeAll()
                    }
                    hosts[view.host] = hostFile
                    lastHost = (view.host, hostFile)
                }
                let result: ApplinksMatch
                var ruleIndex: Int?
                if let automaton = hostFile.automaton {
                    result = automaton.match(view, appID: appID)
                    ruleIndex = automaton.lastDecidingRule
                } else {
                    result = ApplinksMatch(outcome: .noMatch, appID: appID, rule: nil)
                }
                summary.count(result)
                output.result(
                    line: line, url: text, result: result, ruleIndex: ruleIndex, file: hostFile, appID: appID,
                    entitlement: nil, error: nil)
                if summary.urls & 0xFFF == 0 { showProgress() }
            }
        }
        progressLine.finish()
        if let trust, progressLine.enabled { console.err("match: \(trust.retrievals) file(s) retrieved") }
        if let sitemapReader = reader as? SitemapReader {
            for warning in sitemapReader.warnings { console.warn(warning) }
        }
        var files: [(String?, HostFile)] = []
        if let single { files.append((nil, single)) }
        files += hosts.sorted { $0.key < $1.key }.map { (Optional($0.key), $0.value) }
        files += retired.map { (Optional($0.0), $0.1) }
        files += (trust?.allFiles ?? []).map { (Optional($0.0), $0.1) }
        for (host, file) in files {
            for rule in file.automaton?.unusedRules ?? [] {
                summary.unusedRules.append(.init(host: host, rule: rule))
            }
        }
        output.summary(summary, console: console)
        output.flush()
        if summary.invalid > 0 { return .invalidInput }
        if let expect {
            let wrong = summary.total - summary.count(of: expect)
            if wrong > 0 {
                console.warn("\(wrong) URL(s) did not have the expected outcome \(expect.rawValue)")
                return .failure
            }
        }
        return .success
    }

    /// The next entry; what was decided so far is written out before an unreadable input ends the run.
    private static func next(_ reader: inout any LinkListReading, flushing output: inout BulkOutput) throws(SWCredError)
        -> LinkListEntry?
    {
        do {
            return try reader.next()
        } catch {
            output.flush()
            throw error
        }
    }

    /// Reads and compiles `host`'s file from `--aasa-dir`; a missing or bad file decides nothing.
    private func load(_ host: String, source: DirectoryAssociationSource?, console: Console) async throws -> HostFile {
        guard let source else { return HostFile(automaton: nil, aasaHost: host) }
        let retrieved = try await source.retrieve(AssociationFileRequest(host: host, port: nil))
        for diagnostic in retrieved.diagnostics where diagnostic.severity != .note {
            console.warn(diagnostic.labelledMessage)
        }
        guard let body = retrieved.body else {
            if let failure = retrieved.failure { console.warn("\(host): \(failure.description)") }
            return HostFile(automaton: nil, aasaHost: host)
        }
        do {
            let file = try AssociationFile.parse(body)
            for diagnostic in file.diagnostics where diagnostic.severity != .note {
                console.warn("\(host): \(diagnostic.labelledMessage)")
            }
            return HostFile(automaton: ApplinksAutomaton(file: file), aasaHost: host)
        } catch {
            console.warn("\(host): \(error.message)")
            return HostFile(automaton: nil, aasaHost: host)
        }
    }
}

/// The two list readers behind one face.
protocol LinkListReading {
    mutating func next() throws(SWCredError) -> LinkListEntry?
}

extension URLListReader: LinkListReading {}
extension SitemapReader: LinkListReading {}
