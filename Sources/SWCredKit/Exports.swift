// What importing `SWCredKit` brings with it: every swcred module whose types its public API shows
// (`SWCredError` and `DeviceSettings`; the store's `InternetPasswordItem`, `ItemQuery` and
// `KeychainStore`; `AppIdentity`), so that a user names them after `import SWCredKit` alone, never
// importing a module the package offers no product for (issue 29). PackageTests checks that every
// `public import` of a swcred module in this target is re-exported here.
@_exported public import SWCredCore
@_exported public import SWCredStore
@_exported public import SWCredAssociation
