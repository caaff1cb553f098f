/// The emulated device's settings (`spec/store.md` §2.4), one type for every module: the store
/// keeps them, the association layer reads the modes (AD-1.2), and the Shared Web Credentials
/// checks read AutoFill (SWC-3.2).
public struct DeviceSettings: Sendable, Hashable, Codable {
    /// Settings › Passwords › AutoFill Passwords (default `true`); when `false`, add and the legacy
    /// request fail with `errSecBadReq` (−909).
    public var autoFillEnabled: Bool
    /// Settings › Developer › Associated Domains Development (default `false`, `--developer-mode`);
    /// gates `?mode=developer` entries.
    public var developerMode: Bool
    /// An MDM-managed device with direct downloads allowed for the app (default `false`,
    /// `--managed`); gates `?mode=managed` entries.
    public var managedDevice: Bool

    /// Creates settings; the defaults are a stock device's: AutoFill on, developer mode off, unmanaged.
    public init(autoFillEnabled: Bool = true, developerMode: Bool = false, managedDevice: Bool = false) {
        self.autoFillEnabled = autoFillEnabled
        self.developerMode = developerMode
        self.managedDevice = managedDevice
    }
}
