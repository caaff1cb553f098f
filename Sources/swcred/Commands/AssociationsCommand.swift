import ArgumentParser
import SWCredAssociation
import SWCredCore
import SWCredDaemon
import SWCredRetrieval
import SWCredStore

/// `swcred associations`: shows the emulated association daemon's records (`swcutil show`), and
/// changes them only when asked (AD-5.6, no hidden network):
///
/// - `--entitlements FILE [--app-id ID] [--reinstall]` installs the app: a record per active entry
///   (AD-5.2); `--reinstall` deletes and recreates the app's records;
/// - a source (`--aasa-dir DIR`, `--direct` or `--cdn`, with `--ca-file`/`--resolve`) refreshes the
///   records that are due, or all of them with `--force` (AD-5.3, AD-5.5);
/// - `--reset` deletes the records (of `--app-id` only, when given) first.
///
/// Developer mode and the managed state are the store's device settings, or the flags.
/// JSON: `{"schema","records":[{service, appID, domain, host, port, wildcard, modes, userApproval,
/// siteApproval, lastChecked, nextCheck, error, retries, source}], "checked", "installed", "removed"}`.
struct AssociationsCommand: StoreSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "associations", abstract: "Show (and install, refresh or reset) the emulated association daemon's records.",
        discussion: """
            Records are refreshed only when a source is given (no background daemon): records not due \
            yet are skipped unless --force. Text output uses swcutil show's labels.
            """)

    @OptionGroup var storeOptions: GlobalStoreOptions
    @OptionGroup var app: AppOptions
    @OptionGroup var source: SourceOptions

    @Option(help: ArgumentHelp("Only records of this service.", valueName: "service"))
    var service: String?

    @Flag(help: "With --entitlements: delete and recreate the app's records.")
    var reinstall = false

    @Flag(help: "With a source: check every record, not only those that are due.")
    var force = false

    @Flag(help: "Delete the records (of --app-id only, when given) before anything else.")
    var reset = false


    func validate() throws {
        if let service, AssociationRecord.Service(rawValue: service.lowercased()) == nil {
            throw ValidationError("unknown service '\(service)'")
        }
        if reinstall, !app.hasEntitlements {
            throw ValidationError("--reinstall needs --entitlements FILE")
        }
        if force, source.selectedKind == nil {
            throw ValidationError("--force needs a source: --aasa-dir DIR, --direct or --cdn")
        }
    }

    private struct Output: Encodable {
        let records: [AssociationRecordView]
        let checked: Int
        let installed: Int
        let removed: Int
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        var sync = AssociationSync()
        sync.reset = reset
        if app.hasEntitlements { sync.install = try app.identity() }
        sync.reinstall = reinstall
        sync.force = force
        sync.appID = app.appID
        sync.service = service.flatMap { AssociationRecord.Service(rawValue: $0.lowercased()) }
        sync.forceDeveloperMode = app.device.developerMode
        sync.forceManagedDevice = app.device.managed
        let scope: AssociationSync.SourceScope? = try source.selection().map { selection in
            { device, body in try await AssociationSources.with(selection, device: device) { await body($0) } }
        }
        let report = try await sync.run(session: try storeOptions.session(console), source: scope)
        for (record, diagnostic) in report.diagnostics {
            console.err("\(AssociationRecordView(record).domain) (\(record.appID)): \(diagnostic)")
        }
        let views = report.records.map(AssociationRecordView.init)
        let output = Output(
            records: views, checked: report.checked, installed: report.installed, removed: report.removed)
        console.emit(output) {
            if views.isEmpty { console.out("no association records") }
            for view in views { console.out(view.swcutilText) }
        }
        return .success
    }
}
