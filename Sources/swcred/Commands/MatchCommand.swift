import ArgumentParser
import FoundationEssentials
import SWCredAssociation
import SWCredCore
import SWCredRetrieval

/// `swcred match URL (--aasa FILE | --aasa-dir DIR) [--app-id ID] [--entitlements FILE]`: decides
/// what opening a URL does (`spec/cli.md`). Exit 0 `match`, 1 `exclude` or `no_match`, 64–66 on
/// bad input. The bulk form (`--urls`, `--sitemap`) is in `MatchCommand+Bulk.swift`, over the
/// library's `BulkMatcher` (its entitlement path: `--entitlements` with `--aasa-dir`, `--direct` or
/// `--cdn`). With `--entitlements`, the live sources serve the single form too.
struct MatchCommand: SWCredSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Decide whether a URL opens an app (universal links).",
        discussion: HelpExamples.discussion("match")
    )

    @Argument(help: ArgumentHelp("The http(s) URL to open.", valueName: "url"))
    var url: String?

    @Option(help: ArgumentHelp("Decide every URL of FILE (one per line; - for stdin).", valueName: "file"))
    var urls: String?

    @Option(help: ArgumentHelp("Decide every <loc> URL of a sitemap or sitemap index.", valueName: "file"))
    var sitemap: String?

    @Option(
        help: ArgumentHelp(
            "Bulk form: exit 1 unless every URL has this outcome (match, exclude, no_match).", valueName: "outcome"))
    var expect: MatchOutcome?

    @Option(help: ArgumentHelp("Bulk form: progress on stderr: auto (on a terminal), always, or never.", valueName: "when"))
    var progress: ProgressMode = .auto

    @Option(help: ArgumentHelp("The apple-app-site-association file served by the URL's host.", valueName: "file"))
    var aasa: String?

    @OptionGroup var app: AppOptions
    /// `--aasa-dir`, `--direct`, `--cdn`, `--ca-file`, `--resolve`, as `verify` has them.
    @OptionGroup var source: SourceOptions

    /// Tests only (debug builds): a local stand-in for Apple's CDN (https). Its server is vouched for by
    /// `--ca-file`, as an explicit `fetch` may be (AD-4.3); Apple's CDN never is.
    #if DEBUG
    @Option(help: .hidden)
    var cdnBaseUrl: String?
    #else
    var cdnBaseUrl: String? { nil }  // release builds have no such flag
    #endif

    @OptionGroup var formatOptions: FormatOptions

    /// `--aasa-dir DIR`.
    var aasaDir: String? { source.aasaDir }

    func validate() throws {
        guard [url != nil, urls != nil, sitemap != nil].filter({ $0 }).count == 1 else {
            throw ValidationError("give exactly one of URL, --urls FILE and --sitemap FILE")
        }
        if url != nil, expect != nil { throw ValidationError("--expect is for the bulk form (--urls, --sitemap)") }
        guard (aasa == nil) != (source.selectedKind == nil) else {
            throw ValidationError("give exactly one of --aasa FILE, --aasa-dir DIR, --direct and --cdn")
        }
        if app.entitlements == nil, source.selectedKind == .direct || source.selectedKind == .cdn {
            throw ValidationError("--direct and --cdn need --entitlements FILE (its entries choose each host's file)")
        }
        if cdnBaseUrl != nil, source.selectedKind != .cdn {
            throw ValidationError("--cdn-base-url goes with --cdn")
        }
    }

    /// The source of the entitlement path: `--aasa-dir`, or a live `--direct`/`--cdn` source
    /// (with the hidden `--cdn-base-url` of debug builds, a CDN stand-in).
    func sourceSelection() throws -> AssociationSourceSelection {
        try source.requiredSelection(cdnBaseURL: source.selectedKind == .cdn ? cdnBaseUrl : nil)
    }

    struct Output: Encodable {
        let url: String
        let host: String
        let outcome: MatchOutcome
        let appID: String?
        let entitlement: String?
        let aasaHost: String?
        let rule: MatchedRule?
        let diagnostics: [Diagnostic]

        private enum CodingKeys: String, CodingKey {
            case url, host, outcome, appID, entitlement, aasaHost, rule, diagnostics
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(url, forKey: .url)
            try c.encode(host, forKey: .host)
            try c.encode(outcome, forKey: .outcome)
            try c.encode(appID, forKey: .appID)
            try c.encode(entitlement, forKey: .entitlement)
            try c.encode(aasaHost, forKey: .aasaHost)
            try c.encode(rule, forKey: .rule)
            try c.encode(diagnostics, forKey: .diagnostics)
        }
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        guard let url else { return try await executeBulk(console) }
        let link = try LinkURL(url)
        let output: Output
        if let aasa {
            let bytes = try FileInput.read(
                path: aasa, maximumBytes: AssociationFile.Limits().maximumBytes,
                tooLarge: .malformedAASA)
            let file = try AssociationFile.parse(bytes)
            let appID = try app.appID ?? app.loadEntitlements()?.applicationIdentifier
            let result = ApplinksAutomaton(file: file).match(link, appID: appID)
            output = Output(
                url: url, host: link.host, outcome: result.outcome, appID: result.appID ?? appID,
                entitlement: nil, aasaHost: link.host, rule: result.rule, diagnostics: file.diagnostics)
        } else if app.entitlements != nil {
            let identity = try app.identity()
            let device = app.device.settings
            let decision = try await AssociationSources.with(try sourceSelection(), device: device) { fileSource in
                await LinkResolver(evaluator: TrustEvaluator(source: fileSource, device: device)).decide(link, app: identity)
            }
            output = Output(
                url: url, host: link.host, outcome: decision.outcome, appID: decision.appID,
                entitlement: decision.entitlement, aasaHost: decision.aasaHost, rule: decision.rule,
                diagnostics: decision.diagnostics)
        } else if let aasaDir {
            let source = DirectoryAssociationSource(root: aasaDir)
            let retrieved = try await source.retrieve(AssociationFileRequest(host: link.host, port: nil))
            var diagnostics = retrieved.diagnostics
            if let body = retrieved.body {
                let file = try AssociationFile.parse(body)
                diagnostics += file.diagnostics
                let result = ApplinksAutomaton(file: file).match(link, appID: app.appID)
                output = Output(
                    url: url, host: link.host, outcome: result.outcome, appID: result.appID ?? app.appID,
                    entitlement: nil, aasaHost: link.host, rule: result.rule, diagnostics: diagnostics)
            } else {
                if let failure = retrieved.failure { diagnostics.append(.warning(failure.description)) }
                output = Output(
                    url: url, host: link.host, outcome: .noMatch, appID: app.appID, entitlement: nil,
                    aasaHost: link.host, rule: nil, diagnostics: diagnostics)
            }
        } else {
            throw SWCredError(.usage, "--direct and --cdn need --entitlements FILE")
        }
        switch console.format {
        case .json:
            console.emitJSON(output)
        case .text:
            for diagnostic in output.diagnostics where diagnostic.severity != .note {
                console.warn(diagnostic.labelledMessage)
            }
            var line = "\(output.outcome.rawValue)"
            if let appID = output.appID { line += "\t\(appID)" }
            if let rule = output.rule {
                line += "\t\(rule.key)[\(rule.component)] of detail \(rule.detail)"
                line += "\t" + Self.compactJSON(rule.pattern)
            }
            if let entitlement = output.entitlement { line += "\tvia \(entitlement)" }
            console.out(line)
        }
        return output.outcome == .match ? .success : .failure
    }

    /// One-line JSON of a rule pattern, keys sorted.
    static func compactJSON(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}
