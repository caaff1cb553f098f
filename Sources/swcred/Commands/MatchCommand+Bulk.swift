import ArgumentParser
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

/// Counts of a bulk run: the closing `summary` object.
struct BulkSummary: Encodable {
    struct AppCounts: Encodable {
        var match = 0
        var exclude = 0
    }

    struct UnusedRule: Encodable {
        let host: String?
        let rule: MatchedRule

        private enum Keys: String, CodingKey { case aasaHost, detail, component, key, pattern }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encodeIfPresent(host, forKey: .aasaHost)
            try c.encode(rule.detail, forKey: .detail)
            try c.encode(rule.component, forKey: .component)
            try c.encode(rule.key, forKey: .key)
            try c.encode(rule.pattern, forKey: .pattern)
        }
    }

    var urls = 0
    var match = 0
    var exclude = 0
    var noMatch = 0
    var invalid = 0
    /// URLs decided without a file they needed (entitlement path: retrieval failed).
    var unretrieved = 0
    var byApp: [String: AppCounts] = [:]
    var unusedRules: [UnusedRule] = []

    /// URLs decided (invalid lines excluded).
    var total: Int { match + exclude + noMatch }

    func count(of outcome: MatchOutcome) -> Int {
        switch outcome {
        case .match: match
        case .exclude: exclude
        case .noMatch: noMatch
        }
    }

    mutating func count(_ result: ApplinksMatch) {
        urls += 1
        switch result.outcome {
        case .match:
            match += 1
            if let app = result.appID { byApp[app, default: AppCounts()].match += 1 }
        case .exclude:
            exclude += 1
            if let app = result.appID { byApp[app, default: AppCounts()].exclude += 1 }
        case .noMatch: noMatch += 1
        }
    }

    private enum Keys: String, CodingKey {
        case urls, match, exclude, noMatch = "no_match", invalid, unretrieved, byApp, unusedRules
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(urls + invalid, forKey: .urls)
        try c.encode(match, forKey: .match)
        try c.encode(exclude, forKey: .exclude)
        try c.encode(noMatch, forKey: .noMatch)
        try c.encode(invalid, forKey: .invalid)
        try c.encode(unretrieved, forKey: .unretrieved)
        try c.encode(byApp, forKey: .byApp)
        try c.encode(unusedRules, forKey: .unusedRules)
    }
}

/// Buffered stdout of a bulk run: JSON lines (keys sorted, as every swcred document) or text.
struct BulkOutput {
    let json: Bool
    private var buffer: [UInt8] = []

    init(json: Bool) {
        self.json = json
        buffer.reserveCapacity(1 << 17)
    }

    mutating func result(
        line: Int, url: String, result: ApplinksMatch, ruleIndex: Int?, file: MatchCommand.HostFile?, appID: String?,
        entitlement: String?, error: SWCredError?
    ) {
        let app = result.appID ?? appID
        guard json else {
            append(result.outcome.rawValue)
            buffer.append(0x09)
            append(app ?? "-")
            buffer.append(0x09)
            append(url)
            buffer.append(0x0A)
            return
        }
        buffer.append(contentsOf: Self.lineStart)
        if let app { appendJSONString(app) } else { append("null") }
        if entitlement == nil, error == nil {
            buffer.append(contentsOf: Self.lineNumber)
        } else {
            buffer.append(contentsOf: Self.lineEntitlement)
            if let entitlement { appendJSONString(entitlement) } else { append("null") }
            if let error {
                buffer.append(contentsOf: Self.lineError)
                append(Console.encode(ErrorDocument.Body(error), pretty: false))
            }
            buffer.append(contentsOf: Self.lineNumberAfterEntitlement)
        }
        appendDecimal(line)
        buffer.append(contentsOf: Self.lineOutcome)
        append(result.outcome.rawValue)
        buffer.append(contentsOf: Self.lineRule)
        if let rule = result.rule {
            if let file, let index = ruleIndex, index < file.ruleJSON.count {
                if file.ruleJSON[index] == nil { file.ruleJSON[index] = Self.ruleJSON(rule) }
                append(file.ruleJSON[index] ?? "null")
            } else {
                append(Self.ruleJSON(rule))
            }
        } else {
            append("null")
        }
        buffer.append(contentsOf: Self.lineURL)
        appendJSONString(url)
        buffer.append(contentsOf: Self.lineEnd)
        if buffer.count > 1 << 16 { flush() }
    }

    /// The fixed parts of a result line (keys sorted), as bytes.
    private static let lineStart = Array(#"{"appID":"#.utf8)
    private static let lineNumber = Array(#","entitlement":null,"line":"#.utf8)
    private static let lineEntitlement = Array(#","entitlement":"#.utf8)
    private static let lineError = Array(#","error":"#.utf8)
    private static let lineNumberAfterEntitlement = Array(#","line":"#.utf8)
    private static let lineOutcome = Array(#","outcome":""#.utf8)
    private static let lineRule = Array(#"","rule":"#.utf8)
    private static let lineURL = Array(#","schema":"swcred/1","url":"#.utf8)
    private static let lineEnd = Array("}\n".utf8)

    static func ruleJSON(_ rule: MatchedRule) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(rule) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    mutating func invalid(line: Int, error: SWCredError, console: Console) {
        if json {
            append(Console.encode(InvalidLine(line: line, error: .init(error)), pretty: false))
            buffer.append(0x0A)
        } else {
            flush()
            console.err("swcred: line \(line): \(error.message) [\(error.code.name)]")
        }
    }

    mutating func summary(_ summary: BulkSummary, console: Console) {
        if json {
            append(Console.encode(SummaryDocument(summary: summary), pretty: false))
            buffer.append(0x0A)
        } else {
            flush()
            var text = "\(summary.urls + summary.invalid) URLs: \(summary.match) match, \(summary.exclude) exclude, "
            text += "\(summary.noMatch) no_match, \(summary.invalid) invalid"
            if summary.unretrieved > 0 { text += " (\(summary.unretrieved) decided without their file)" }
            console.err(text)
            for (app, counts) in summary.byApp.sorted(by: { $0.key < $1.key }) {
                console.err("  \(app): \(counts.match) match, \(counts.exclude) exclude")
            }
            if !summary.unusedRules.isEmpty {
                console.err("  rules no URL reached:")
                for unused in summary.unusedRules {
                    let rule = unused.rule
                    console.err(
                        "    \(unused.host.map { $0 + " " } ?? "")\(rule.key)[\(rule.component)] of detail \(rule.detail)\t"
                            + MatchCommand.compactJSON(rule.pattern))
                }
            }
        }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        CommandContext.write(buffer, to: CommandContext.current.standardOutput)
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    /// The decimal digits of `value` (a line number).
    private mutating func appendDecimal(_ value: Int) {
        guard value > 0 else {
            append(String(value))
            return
        }
        // Room for the 19 digits of Int.max.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { space in
            while rest > 0 {
                count += 1
                space[24 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: space[(24 - count)...]))
        }
    }

    /// A JSON string literal (quotes, backslash and controls escaped; everything else as UTF-8).
    private mutating func appendJSONString(_ text: String) {
        var text = text
        // Most texts (URLs, app IDs) need no escape: copied in one go.
        let copied = text.withUTF8 { bytes in
            for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            buffer.append(UInt8(ascii: "\""))
            buffer.append(contentsOf: bytes)
            buffer.append(UInt8(ascii: "\""))
            return true
        }
        if !copied { appendEscapedJSONString(text) }
    }

    private mutating func appendEscapedJSONString(_ text: String) {
        buffer.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): buffer.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): buffer.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: buffer.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: buffer.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: buffer.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                buffer.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: buffer.append(byte)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    struct InvalidLine: Encodable {
        let line: Int
        let error: ErrorDocument.Body
    }

    struct SummaryDocument: Encodable {
        let summary: BulkSummary
    }
}
