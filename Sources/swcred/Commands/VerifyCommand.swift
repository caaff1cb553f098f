import ArgumentParser
import SWCredAssociation
import SWCredCore
import SWCredRetrieval

/// `swcred verify --entitlements FILE [--app-id ID] [source options] [--service S]`: checks two-way
/// trust for every entry (`spec/cli.md`). Exit 0 when every checked association is trusted, 10
/// otherwise.
struct VerifyCommand: FormatOptionsSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "verify", abstract: "Check the two-way trust between an app's entitlements and its domains' files.")

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

    func execute(_ console: Console) async throws -> ExitStatus {
        let identity = try app.identity()
        let device = app.device.settings
        let services = service.map { Set([AssociationService(rawValue: $0)]) }
        // Files are retrieved up to 8 at a time (AD-4.8); each one finished is a step on stderr.
        let line = ProgressLine(progress)
        let report = try await AssociationSources.with(try source.requiredSelection(), device: device) { fileSource in
            var evaluator = TrustEvaluator(source: fileSource, device: device)
            if line.enabled {
                evaluator.onRetrieval = { step in
                    line.show(
                        "verify: \(step.completed)/\(step.total) \(step.authority) "
                            + (step.usable ? "retrieved" : "not usable"))
                }
            }
            return await evaluator.evaluate(app: identity, services: services)
        }
        line.finish()
        console.emit(report) {
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
        return ExitStatus(report)
    }
}
