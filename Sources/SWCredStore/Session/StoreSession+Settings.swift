internal import FoundationEssentials
package import SWCredCore

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
        guard autoFillEnabled != nil || developerMode != nil || managedDevice != nil else {
            do {
                return try read().contents.settings
            } catch {
                if error.code == .storeNotFound { return DeviceSettings() }
                throw error
            }
        }
        return try modify(createIfMissing: true) {
            (contents: inout StoreContents, _: Date) throws(SWCredError) -> DeviceSettings in
            if let autoFillEnabled { contents.settings.autoFillEnabled = autoFillEnabled }
            if let developerMode { contents.settings.developerMode = developerMode }
            if let managedDevice { contents.settings.managedDevice = managedDevice }
            return contents.settings
        }
    }
}
