internal import FoundationEssentials
package import SWCredCore

/// The settings `swcred settings` shows and changes: the emulated device's (store.md §2.4) and
/// the store's own (rollback protection, store.md §5).
package struct StoreSettings: Sendable, Equatable {
    /// The emulated device settings.
    package var device: DeviceSettings
    /// Whether the store has rollback protection on (off by default).
    package var rollbackProtection: Bool

    package init(device: DeviceSettings = DeviceSettings(), rollbackProtection: Bool = false) {
        self.device = device
        self.rollbackProtection = rollbackProtection
    }
}

extension StoreSession {
    /// The device settings `swcred settings` shows and changes (store.md §2.4).
    ///
    /// Without a change (every argument `nil`) the store is only read, and a missing store has a
    /// fresh device's settings; with one, the changes are made in one transaction, the store
    /// created on first write.
    /// - Returns: the settings after the change.
    /// - Throws: the store's errors.
    package func deviceSettings(
        autoFillEnabled: Bool? = nil, developerMode: Bool? = nil, managedDevice: Bool? = nil
    ) throws(SWCredError) -> DeviceSettings {
        try settings(autoFillEnabled: autoFillEnabled, developerMode: developerMode, managedDevice: managedDevice)
            .device
    }

    /// The device settings and the store's rollback protection, changed as asked in one
    /// transaction (see ``deviceSettings(autoFillEnabled:developerMode:managedDevice:)``).
    ///
    /// Turning rollback protection on anchors the mark at the generation it saves; turning it
    /// off saves a store that reads and writes no state file from then on. With the rollback
    /// override (``StoreOptions/allowRollback``) a protected older copy is accepted by this save
    /// even when nothing else changes (store.md §5).
    package func settings(
        autoFillEnabled: Bool? = nil, developerMode: Bool? = nil, managedDevice: Bool? = nil,
        rollbackProtection: Bool? = nil
    ) throws(SWCredError) -> StoreSettings {
        let changes = autoFillEnabled != nil || developerMode != nil || managedDevice != nil || rollbackProtection != nil
        guard changes || (configuration.options.allowRollback && storeExists) else {
            do {
                let contents = try read().contents
                return StoreSettings(device: contents.settings, rollbackProtection: contents.rollbackProtection)
            } catch {
                if error.code == .storeNotFound { return StoreSettings() }
                throw error
            }
        }
        return try modify(createIfMissing: changes) {
            (contents: inout StoreContents, _: Date) throws(SWCredError) -> StoreSettings in
            if let autoFillEnabled { contents.settings.autoFillEnabled = autoFillEnabled }
            if let developerMode { contents.settings.developerMode = developerMode }
            if let managedDevice { contents.settings.managedDevice = managedDevice }
            if let rollbackProtection { contents.rollbackProtection = rollbackProtection }
            return StoreSettings(device: contents.settings, rollbackProtection: contents.rollbackProtection)
        }
    }
}
