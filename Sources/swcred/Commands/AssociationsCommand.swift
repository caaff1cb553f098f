import ArgumentParser
import Foundation
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
struct AssociationsCommand: SWCredSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "associations",
        abstract: "Show (and install, refresh or reset) the emulated association daemon's records.",
        discussion: HelpExamples.discussion("associations", """
            Records are refreshed only when a source is given (no background daemon): records not due \
            yet are skipped unless --force. Text output uses swcutil show's labels.
            """)
    )

    @OptionGroup var store: GlobalStoreOptions
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

    @OptionGroup var formatOptions: FormatOptions

    func validate() throws {
        if let service, AssociationRecord.Service(rawValue: service.lowercased()) == nil {
            throw ValidationError("unknown service '\(service)'")
        }
        if reinstall, app.entitlements == nil {
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
        let appFilter = app.appID
        let serviceFilter = service.flatMap { AssociationRecord.Service(rawValue: $0.lowercased()) }
        let changes = reset || app.entitlements != nil || source.selectedKind != nil
        var removed = 0
        var installed = 0
        var checked = 0

        // The device: the store's settings, or the flags.
        let session = try store.session(console)
        var settings = DeviceSettings()
        if changes {
            _ = try session.storeCreatingIfMissing()
            settings = try session.read().contents.settings
        }
        let device = DeviceSettings(
            developerMode: app.device.developerMode || settings.developerMode,
            managedDevice: app.device.managed || settings.managedDevice
        )

        if reset {
            removed = try session.modify(createIfMissing: false) { contents, _ in
                AssociationDaemon.reset(&contents, appID: appFilter)
            }
        }
        if app.entitlements != nil {
            let identity = try app.identity()
            let daemon = AssociationDaemon(source: DirectoryAssociationSource(root: "/nonexistent"), device: device)
            let doReinstall = reinstall
            installed = try session.modify(createIfMissing: true) {
                (contents: inout StoreContents, _: Date) throws(SWCredError) -> Int in
                try daemon.install(app: identity, into: &contents, reinstall: doReinstall).count
            }
        }
        if let selection = try source.selection() {
            let due = Self.filter(try session.read().contents.associationRecords, appID: appFilter, service: serviceFilter)
            let force = self.force
            let outcomes = try await AssociationSources.with(selection, device: device) { fileSource in
                await AssociationDaemon(source: fileSource, device: device).refresh(due, force: force)
            }
            checked = outcomes.filter(\.checked).count
            _ = try session.modify(createIfMissing: false) {
                (contents: inout StoreContents, _: Date) throws(SWCredError) -> Int in
                try AssociationDaemon.apply(outcomes, to: &contents)
            }
            for outcome in outcomes where outcome.checked {
                for diagnostic in outcome.diagnostics where diagnostic.severity != .note {
                    console.err(
                        "\(AssociationRecordView(outcome.record).domain) (\(outcome.record.appID)): \(diagnostic)")
                }
            }
        }

        let records = try listRecords(
            session, appID: appFilter, service: serviceFilter, storeMayBeMissing: !changes)
        let views = records.map(AssociationRecordView.init)
        switch console.format {
        case .json:
            console.emitJSON(Output(records: views, checked: checked, installed: installed, removed: removed))
        case .text:
            if views.isEmpty { console.out("no association records") }
            for view in views { console.out(view.swcutilText) }
        }
        return .success
    }

    /// The stored records, filtered; an absent store lists nothing when nothing was to be changed.
    private func listRecords(
        _ session: StoreSession, appID: String?, service: AssociationRecord.Service?, storeMayBeMissing: Bool
    ) throws(SWCredError) -> [AssociationRecord] {
        do {
            return Self.filter(try session.read().contents.associationRecords, appID: appID, service: service)
        } catch {
            if storeMayBeMissing, error.code == .storeNotFound { return [] }
            throw error
        }
    }

    static func filter(_ records: [AssociationRecord], appID: String?, service: AssociationRecord.Service?)
        -> [AssociationRecord]
    {
        records.filter { record in
            (appID.map { record.appID == $0 } ?? true) && (service.map { record.service == $0 } ?? true)
        }
    }
}
