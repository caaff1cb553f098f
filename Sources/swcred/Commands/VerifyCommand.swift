import ArgumentParser
import SWCredAssociation
import SWCredCore
import SWCredRetrieval

/// `swcred verify (--entitlements FILE | --app PATH | --android-app PKG=FP…) [--host HOST…] [source
/// options] [--service S]`: checks two-way trust for every entitlement entry and every Android app
/// on its hosts, and compares the platforms host by host (`spec/cli.md`). With `--app`, the app ID
/// and the entries are the signed ones, and the artifact's findings (`APP-…`) are printed; an
/// error among them makes the verdict not trusted. Exit 0 when every checked association is
/// trusted, 10 otherwise.
struct VerifyCommand: FormatOptionsSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "verify", abstract: "Check the two-way trust between an app's entitlements and its domains' files.")

    @OptionGroup var app: AppOptions
    @OptionGroup var source: SourceOptions

    @Option(
        name: .customLong("android-app"),
        help: ArgumentHelp(
            "An Android app: package name and SHA-256 signing fingerprints (repeatable).", valueName: "pkg=fp[,fp…]"))
    var androidApps: [String] = []

    @Option(
        name: .customLong("host"),
        help: ArgumentHelp(
            "A host whose assetlinks.json the Android apps are checked against (repeatable; default: the "
                + "entitlements' webcredentials and applinks hosts).",
            valueName: "host"))
    var hosts: [String] = []

    @Option(
        name: .customLong("android-manifest"),
        help: ArgumentHelp(
            "The Android app's AndroidManifest.xml: its App Links hosts (default hosts) and asset_statements "
                + "(fingerprints come from --android-app).",
            valueName: "file"))
    var androidManifest: String?

    @Option(
        name: .customLong("android-strings"),
        help: ArgumentHelp(
            "The app's res/values/strings.xml, for the manifest's @string/ references (asset_statements).",
            valueName: "file"))
    var androidStrings: String?

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
        guard app.hasEntitlements || !androidApps.isEmpty else {
            throw ValidationError("--entitlements FILE, --app PATH or --android-app PKG=FP is required")
        }
        guard source.selectedKind != nil else {
            throw ValidationError("give an association source: --aasa-dir DIR, --direct or --cdn")
        }
        if !hosts.isEmpty, androidApps.isEmpty {
            throw ValidationError("--host names the hosts of Android apps: give --android-app PKG=FP")
        }
        if !androidApps.isEmpty, !app.hasEntitlements, hosts.isEmpty, androidManifest == nil {
            throw ValidationError(
                "name the Android apps' hosts: --host HOST (or give --entitlements, --app or --android-manifest)")
        }
        if androidManifest != nil, androidApps.isEmpty {
            throw ValidationError(
                "--android-manifest needs the app's signing fingerprints: give --android-app PKG=FP for its package")
        }
        if androidStrings != nil, androidManifest == nil {
            throw ValidationError("--android-strings goes with --android-manifest FILE")
        }
        if let service, !AssociationService(rawValue: service).isKnown {
            throw ValidationError("unknown service '\(service)'")
        }
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        let signed = try signedApp()
        let identity = try signed.map { reading throws(SWCredError) in
            try AppIdentity(entitlements: reading.entitlements)
        } ?? (app.hasEntitlements ? try app.identity() : nil)
        let android = try androidApps.map { text throws(SWCredError) in try AndroidAppIdentity.parse(text) }
        let packages = android.map(\.packageName)
        if let repeated = packages.first(where: { name in packages.filter { $0 == name }.count > 1 }) {
            throw SWCredError(.usage, "--android-app \(repeated) is given twice; list its fingerprints once")
        }
        let sites = try hosts.map { text throws(SWCredError) in try AssetLinksSite.https(host: text) }
        let manifest = try readManifest(packages: packages)
        let device = app.device.settings
        let services = service.map { Set([AssociationService(rawValue: $0)]) }
        let selection = try source.requiredSelection()
        // Files are retrieved up to 8 at a time (AD-4.8); each one finished is a step on stderr.
        let line = ProgressLine(progress)
        let report = try await AssociationSources.withAssetLinks(android.isEmpty ? nil : selection) { assetLinks in
            try await AssociationSources.with(selection, device: device) { fileSource in
                var flow = CrossPlatformTrustEvaluator(source: fileSource, assetLinks: assetLinks, device: device)
                if line.enabled {
                    flow.ios.onRetrieval = { step in
                        line.show(
                            "verify: \(step.completed)/\(step.total) \(step.authority) "
                                + (step.usable ? "retrieved" : "not usable"))
                    }
                }
                if let manifest {
                    return await flow.evaluate(
                        app: identity, androidApps: android, manifest: manifest, hosts: sites, services: services)
                }
                return await flow.evaluate(app: identity, androidApps: android, hosts: sites, services: services)
            }
        }
        line.finish()
        guard let signed else {
            console.emit(report) { Self.printText(report, console) }
            return ExitStatus(report)
        }
        // An error among the artifact's findings is a reason the device would not use the
        // association, whatever the files say (issue 31).
        var checked = report
        if signed.findings.contains(where: { $0.severity == .error }) { checked.trusted = false }
        let members = SignedAppMembers(artifact: ArtifactMember(artifact: signed.artifact), findings: signed.findings)
        console.emit(MergedDocument(checked, members)) {
            Self.printText(checked, console)
            Self.printSignedApp(signed, trusted: checked.trusted, associationsTrusted: report.trusted, console)
        }
        return ExitStatus(checked)
    }

    /// `--app`'s reading, comparing the `--entitlements` file when both are given.
    private func signedApp() throws(SWCredError) -> SignedAppReading? {
        guard app.appPath != nil else { return nil }
        let source = try app.entitlements.map { path throws(SWCredError) in try Entitlements.load(path: path) }
        return try app.signedApp(comparingWith: source)
    }

    private static func printText(_ report: CrossPlatformTrustReport, _ console: Console) {
        let trustedCount = report.associations.filter(\.trusted).count
        let name = ((report.appID.map { [$0] } ?? []) + report.androidApps).joined(separator: ", ")
        // Every association trusted yet the verdict not: a signed app's finding decided (verify --app).
        let decidedElsewhere = !report.trusted && trustedCount == report.associations.count
        console.out(
            "\(name): \(report.trusted ? "trusted" : "not trusted") "
                + "(\(trustedCount) of \(report.associations.count) associations trusted"
                + "\(decidedElsewhere ? "; the signed app fails a check below" : ""))")
        for row in report.associations {
            switch row {
            case .ios(let verdict):
                let origin = verdict.aasaHost.isEmpty ? "" : "  (\(verdict.source.rawValue): \(verdict.aasaHost))"
                console.out("  \(verdict.trusted ? "✓" : "✗") \(verdict.entry)\(origin)")
                console.out("      \(verdict.reason)")
                for diagnostic in verdict.diagnostics where diagnostic.severity != .note {
                    console.out("      \(diagnostic)")
                }
            case .android(let verdict):
                console.out(
                    "  \(verdict.trusted ? "✓" : "✗") android \(verdict.app) \(verdict.relation) on \(verdict.host)"
                        + "  (\(verdict.source.rawValue): \(verdict.host))")
                if verdict.verifiers.differ {
                    for (name, one) in [("google", verdict.verifiers.google), ("android", verdict.verifiers.android)] {
                        console.out("      \(name): \(one.trusted ? "trusted" : "not trusted") — \(one.reason)")
                    }
                } else {
                    console.out("      \(verdict.reason)")
                }
            }
        }
        if let table = report.crossPlatform, !table.isEmpty { printTable(table, console) }
        if let manifest = report.androidManifest { printManifest(manifest, console) }
    }

    /// The cross-platform table: one line per platform's app on each host, then the asymmetries.
    private static func printTable(_ table: [CrossPlatformRow], _ console: Console) {
        func mark(_ value: Bool) -> String { value ? "✓" : "✗" }
        var lines: [(host: String, app: String, capabilities: CrossPlatformRow.Capabilities)] = []
        for row in table {
            if let iosApp = row.iosApp, let ios = row.ios { lines.append((row.host, "ios \(iosApp)", ios)) }
            lines.append((row.host, "android \(row.androidApp)", row.android))
        }
        let hostWidth = max(4, lines.map(\.host.utf16.count).max() ?? 0) + 2
        let appWidth = max(3, lines.map(\.app.utf16.count).max() ?? 0) + 2
        console.out("")
        console.out("Cross-platform:")
        console.out(
            "  " + "host".padded(toLength: hostWidth) + "app".padded(toLength: appWidth) + "passwords  links  passkeys")
        var previous = ""
        for line in lines {
            let host = line.host == previous ? "" : line.host
            previous = line.host
            let capabilities = line.capabilities
            let marks =
                mark(capabilities.passwords).padded(toLength: 11) + mark(capabilities.links).padded(toLength: 7)
                + mark(capabilities.passkeys)
            console.out("  " + host.padded(toLength: hostWidth) + line.app.padded(toLength: appWidth) + marks)
        }
        for sentence in table.flatMap(\.asymmetries) { console.out("  ! \(sentence)") }
    }
}
