import SWCredCore

/// Per-call environment beyond the app and the store (SWC-1.3).
public struct SWCConfiguration: Sendable, Hashable {
    /// The profile, `legacy` by default (SWC-1.2). A request may override it per call.
    public var profile: SWCProfile
    /// The platform, `ios` by default.
    public var platform: SWCPlatform
    /// Simulator mode (default off): skips the entitlement and site-approval checks and treats
    /// Password AutoFill as on, as Apple's Simulator does.
    public var simulator: Bool
    /// Whether adding a new credential prompts (`prompt`, default) or not (`silent`).
    public var addConfirmation: SWCAddConfirmation
    /// How long a prompt or the picker may wait for an answer; `nil` (default) waits without a time
    /// limit, as the device does (SWC-3.5). On expiry the answer is `cancel`.
    public var promptTimeout: Duration?
    /// Turns developer mode on for these calls whatever the store's setting (the CLI's
    /// `--developer-mode`); `false` leaves the store's setting.
    public var forceDeveloperMode: Bool = false
    /// Turns the managed-device setting on for these calls (the CLI's `--managed`).
    public var forceManagedDevice: Bool = false

    /// The settings the checks use: the store's, with the forced switches applied.
    public func effective(_ settings: SWCDeviceSettings) -> SWCDeviceSettings {
        var settings = settings
        if forceDeveloperMode { settings.developerMode = true }
        if forceManagedDevice { settings.managedDevice = true }
        return settings
    }

    /// Creates a configuration; the defaults are an iOS device of iOS 12–15.
    public init(
        profile: SWCProfile = .legacy,
        platform: SWCPlatform = .ios,
        simulator: Bool = false,
        addConfirmation: SWCAddConfirmation = .prompt,
        promptTimeout: Duration? = nil
    ) {
        self.profile = profile
        self.platform = platform
        self.simulator = simulator
        self.addConfirmation = addConfirmation
        self.promptTimeout = promptTimeout
    }
}
