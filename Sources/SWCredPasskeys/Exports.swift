// What importing `SWCredPasskeys` brings with it: every swcred module whose types its public API shows
// (`SWCredError`, the Kit's `SWCApp` and prompts, the store's `StoreContents`), so that a user names
// them after `import SWCredPasskeys` alone, never importing a module the package offers no product for
// (issue 29). PackageTests checks that every `public import` of a swcred module in this target is re-
// exported here.
@_exported public import SWCredCore
@_exported public import SWCredKit
@_exported public import SWCredStore
