import ArgumentParser
import SWCredAssociation
import SWCredCore
import SWCredRetrieval

/// `swcred verify --entitlements FILE [--app-id ID] [source options] [--service S]`: checks two-way
/// trust for every entry (`spec/cli.md`). Exit 0 when every checked association is trusted, 10
/// otherwise.
struct VerifyCommand: SWCredSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check the two-way trust between an app's entitlements and its domains' files.",
        discussion: HelpExamples.discussion("verify")
    )

    @OptionGroup var app: AppOptions
    @OptionGroup var source: SourceOptions

    @Option(
        help: ArgumentHelp(
            "Check only this service (webcredentials, applinks, appclips, activitycontinuation, authsrv).",
            valueName: "service"))
    var service: String?

    @Option(
        help: ArgumentHelp(
            "Report each retrieved file on stderr: auto (on a terminal), always, or never.",
            valueName: "when"))
    var progress: ProgressMode = .auto

    @OptionGroup var formatOptions: FormatOptions

    func validate() throws {
        guard app.entitlements != nil else { throw ValidationError("--entitlements FILE is required") }
        guard source.selectedKind != nil else {
            throw ValidationError("give an association source: --aasa-dir DIR, --direct or --cdn")
        }
        if let service, !AssociationService(rawValue: service).isKnown {
            throw ValidationError("unknown service '\(service)'")
        }
    }

    /// Picks the association source for the options: the one place where a source is chosen.
    ///
    /// `--aasa-dir` wins when given (`spec/cli.md`); `--direct` / `--cdn` are the live sources of
    /// `SWCredRetrieval`, wired here by its owner.
    static func makeSource(_ options: SourceOptions, device: DeviceSettings) async throws -> any AssociationFileSource {
        if let aasaDir = options.aasaDir { return DirectoryAssociationSource(root: aasaDir) }
        if let kind = options.selectedKind {
            // SWCredRetrieval: --ca-file roots count for developer entries only (AD-4.3).
            return try LiveAssociationSource.make(
                kind: kind, caFile: options.caFile, resolve: options.resolve, device: device)
        }
        throw SWCredError(.usage, "give an association source: --aasa-dir DIR, --direct or --cdn")
    }

    func execute(_ console: Console) async throws -> Int32 {
        let identity = try app.identity()
        let device = app.device.settings
        let fileSource = try await Self.makeSource(source, device: device)
        let services = service.map { Set([AssociationService(rawValue: $0)]) }
        var evaluator = TrustEvaluator(source: fileSource, device: device)
        // Files are retrieved up to 8 at a time (AD-4.8); each one finished is a step on stderr.
        let line = ProgressLine(progress)
        if line.enabled {
            evaluator.onRetrieval = { step in
                line.show(
                    "verify: \(step.completed)/\(step.total) \(step.authority) "
                        + (step.usable ? "retrieved" : "not usable"))
            }
        }
        let report = await evaluator.evaluate(app: identity, services: services)
        line.finish()
        try? await (fileSource as? LiveAssociationSource)?.shutdown()
        switch console.format {
        case .json:
            console.emitJSON(report)
        case .text:
            let trustedCount = report.associations.filter(\.trusted).count
            console.out(
                "\(report.appID): \(report.trusted ? "trusted" : "not trusted") "
                    + "(\(trustedCount) of \(report.associations.count) associations trusted)")
            for verdict in report.associations {
                let origin = verdict.aasaHost.isEmpty ? "" : "  (\(verdict.source.rawValue): \(verdict.aasaHost))"
                console.out("  \(verdict.trusted ? "✓" : "✗") \(verdict.entry)\(origin)")
                console.out("      \(verdict.reason)")
                for diagnostic in verdict.diagnostics where diagnostic.severity != .note {
                    console.out("      \(diagnostic)")
                }
            }
        }
        return report.trusted ? 0 : 10
    }
}
