public import SWCredCore

/// The device settings under the Kit's `SWC` names: the same type the store keeps and the
/// association layer reads (`spec/store.md` §2.4).
public typealias SWCDeviceSettings = DeviceSettings
