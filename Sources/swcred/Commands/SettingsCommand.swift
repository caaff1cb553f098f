import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredStore

/// `swcred settings` (cli.md): shows or changes the emulated device settings of the store
/// (store.md §2.4): Password AutoFill, Associated Domains Development (developer mode), and
/// MDM management.
///
/// `swcred settings --autofill off` makes every app-path add and legacy request fail with
/// `errSecBadReq` (exit 14). Without a change it only prints; a store that does not exist yet
/// shows a fresh device's defaults.
struct SettingsCommand: StoreSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "settings",
        abstract: "Show or change the emulated device settings (Password AutoFill, developer mode, managed device).",
        discussion: "Each option takes on or off. JSON: {\"schema\",\"autoFill\",\"developerMode\",\"managedDevice\","
            + "\"rollbackProtection\"}. With --allow-rollback, a protected store's older copy is accepted as current.")

    @OptionGroup var storeOptions: GlobalStoreOptions

    @Option(help: ArgumentHelp("Password AutoFill: on or off.", valueName: "on|off"))
    var autofill: Switch?

    @Option(name: .customLong("developer-mode"), help: ArgumentHelp("Associated Domains Development: on or off.", valueName: "on|off"))
    var developerMode: Switch?

    @Option(name: .customLong("managed-device"), help: ArgumentHelp("MDM-managed device: on or off.", valueName: "on|off"))
    var managedDevice: Switch?

    @Option(
        name: .customLong("rollback-protection"),
        help: ArgumentHelp("Refuse older copies of this store (store.md §5): on or off.", valueName: "on|off"))
    var rollbackProtection: Switch?

    enum Switch: String, ExpressibleByArgument, Sendable {
        case on, off
        var value: Bool { self == .on }
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        let settings = try storeOptions.session(console).settings(
            autoFillEnabled: autofill?.value, developerMode: developerMode?.value, managedDevice: managedDevice?.value,
            rollbackProtection: rollbackProtection?.value)
        console.emit(SettingsResult(settings)) {
            console.out("Password AutoFill: \(settings.device.autoFillEnabled ? "on" : "off")")
            console.out("Developer mode: \(settings.device.developerMode ? "on" : "off")")
            console.out("Managed device: \(settings.device.managedDevice ? "on" : "off")")
            console.out("Rollback protection: \(settings.rollbackProtection ? "on" : "off")")
        }
        return .success
    }
}

/// `{"schema","autoFill","developerMode","managedDevice","rollbackProtection"}`.
struct SettingsResult: Encodable {
    let autoFill: Bool
    let developerMode: Bool
    let managedDevice: Bool
    let rollbackProtection: Bool

    init(_ settings: StoreSettings) {
        autoFill = settings.device.autoFillEnabled
        developerMode = settings.device.developerMode
        managedDevice = settings.device.managedDevice
        rollbackProtection = settings.rollbackProtection
    }
}
