/// The emulated device settings that the Shared Web Credentials checks read (`spec/store.md` §2.4).
public struct SWCDeviceSettings: Sendable, Hashable, Codable {
    /// Password AutoFill is enabled (default `true`); when `false`, add and the legacy request fail
    /// with `errSecBadReq` (−909).
    public var autoFillEnabled: Bool
    /// Associated Domains Development is on (default `false`); gates `?mode=developer` entries.
    public var developerMode: Bool
    /// The device is MDM-managed (default `false`); gates `?mode=managed` entries.
    public var managedDevice: Bool

    /// Creates settings; the defaults are a fresh device's.
    public init(autoFillEnabled: Bool = true, developerMode: Bool = false, managedDevice: Bool = false) {
        self.autoFillEnabled = autoFillEnabled
        self.developerMode = developerMode
        self.managedDevice = managedDevice
    }
}
