import ArgumentParser
import SWCredAssociation
import SWCredCore
import SWCredRetrieval

/// `swcred match URL (--aasa FILE | --aasa-dir DIR) [--app-id ID] [--entitlements FILE]`: decides
/// what opening a URL does (`spec/cli.md`). Exit 0 `match`, 1 `exclude` or `no_match`, 64–66 on
/// bad input. The bulk form (`--urls`, `--sitemap`) is in `MatchCommand+Bulk.swift`, over the
/// library's `BulkMatcher` (its entitlement path: `--entitlements` with `--aasa-dir`, `--direct` or
/// `--cdn`). With `--entitlements`, the live sources serve the single form too.
struct MatchCommand: FormatOptionsSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "match", abstract: "Decide whether a URL opens an app (universal links).")

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
        if !app.hasEntitlements, source.selectedKind == .direct || source.selectedKind == .cdn {
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

    /// The `--aasa` file, parsed.
    func aasaFile() throws(SWCredError) -> AssociationFile? {
        guard let aasa else { return nil }
        let limit = AssociationFile.Limits().maximumBytes
        return try AssociationFile.parse(try FileInput.read(path: aasa, maximumBytes: limit, tooLarge: .malformedAASA))
    }

    /// The app of a decision by one file (`--aasa`, `--aasa-dir` without `--entitlements`):
    /// `--app-id`, else the entitlements' application identifier.
    func appIDOfFilePath() throws(SWCredError) -> String? {
        if let appID = app.appID { return appID }
        return try app.loadEntitlements()?.applicationIdentifier
    }

    struct Output: Encodable {
        let url: String
        let host: String
        let outcome: MatchOutcome
        @ExplicitNull var appID: String?
        @ExplicitNull var entitlement: String?
        @ExplicitNull var aasaHost: String?
        @ExplicitNull var rule: MatchedRule?
        let diagnostics: [Diagnostic]
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        guard let url else { return try await executeBulk(console) }
        let link = try LinkURL(url)
        let output: Output
        if app.hasEntitlements, aasa == nil {
            let identity = try app.identity()
            let device = app.device.settings
            let decision = try await AssociationSources.with(try sourceSelection(), device: device) { fileSource in
                await LinkResolver(evaluator: TrustEvaluator(source: fileSource, device: device)).decide(link, app: identity)
            }
            output = Output(
                url: url, host: link.host, outcome: decision.outcome, appID: decision.appID,
                entitlement: decision.entitlement, aasaHost: decision.aasaHost, rule: decision.rule,
                diagnostics: decision.diagnostics)
        } else {
            // One file: --aasa, or the URL's host's file in --aasa-dir.
            var diagnostics: [Diagnostic] = []
            var file: AssociationFile?
            if aasa != nil {
                file = try aasaFile()
            } else if let aasaDir {
                let source = try DirectoryAssociationSource.opening(root: aasaDir)
                let retrieved = try await source.retrieve(AssociationFileRequest(host: link.host, port: nil))
                diagnostics = retrieved.diagnostics
                if let body = retrieved.body {
                    file = try AssociationFile.parse(body)
                } else if let failure = retrieved.failure {
                    diagnostics.append(.warning(failure.description))
                }
            } else {
                throw SWCredError(.usage, "--direct and --cdn need --entitlements FILE")
            }
            let appID = try appIDOfFilePath()
            let result = file.map { ApplinksAutomaton(file: $0).match(link, appID: appID) }
            output = Output(
                url: url, host: link.host, outcome: result?.outcome ?? .noMatch, appID: result?.appID ?? appID,
                entitlement: nil, aasaHost: link.host, rule: result?.rule,
                diagnostics: diagnostics + (file?.diagnostics ?? []))
        }
        console.emit(output) {
            for diagnostic in output.diagnostics where diagnostic.severity != .note {
                console.warn(diagnostic.labelledMessage)
            }
            var line = "\(output.outcome.rawValue)"
            if let appID = output.appID { line += "\t\(appID)" }
            if let rule = output.rule {
                line += "\t\(rule.key)[\(rule.component)] of detail \(rule.detail)"
                line += "\t" + Console.encodePlain(rule.pattern)
            }
            if let entitlement = output.entitlement { line += "\tvia \(entitlement)" }
            console.out(line)
        }
        return ExitStatus(output.outcome)
    }
}
