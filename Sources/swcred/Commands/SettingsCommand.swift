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
        discussion: "Each option takes on or off. JSON: {\"schema\",\"autoFill\",\"developerMode\",\"managedDevice\"}.")

    @OptionGroup var storeOptions: GlobalStoreOptions

    @Option(help: ArgumentHelp("Password AutoFill: on or off.", valueName: "on|off"))
    var autofill: Switch?

    @Option(name: .customLong("developer-mode"), help: ArgumentHelp("Associated Domains Development: on or off.", valueName: "on|off"))
    var developerMode: Switch?

    @Option(name: .customLong("managed-device"), help: ArgumentHelp("MDM-managed device: on or off.", valueName: "on|off"))
    var managedDevice: Switch?

    enum Switch: String, ExpressibleByArgument, Sendable {
        case on, off
        var value: Bool { self == .on }
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        let settings = try storeOptions.session(console).deviceSettings(
            autoFillEnabled: autofill?.value, developerMode: developerMode?.value, managedDevice: managedDevice?.value)
        console.emit(SettingsResult(settings)) {
            console.out("Password AutoFill: \(settings.autoFillEnabled ? "on" : "off")")
            console.out("Developer mode: \(settings.developerMode ? "on" : "off")")
            console.out("Managed device: \(settings.managedDevice ? "on" : "off")")
        }
        return .success
    }
}

/// `{"schema","autoFill","developerMode","managedDevice"}`.
struct SettingsResult: Encodable {
    let autoFill: Bool
    let developerMode: Bool
    let managedDevice: Bool

    init(_ settings: DeviceSettings) {
        autoFill = settings.autoFillEnabled
        developerMode = settings.developerMode
        managedDevice = settings.managedDevice
    }
}
