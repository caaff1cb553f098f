// What importing `SWCredPasskeyTesting` brings with it: every swcred module whose types its public API
// shows (`SWCredError`, the passkey and Kit types, the store's `StoreContents`, and
// `SWCPromptRecorder`, the one prompt recorder), so that a user names them after `import
// SWCredPasskeyTesting` alone, never importing a module the package offers no product for (issue 29).
// PackageTests checks that every `public import` of a swcred module in this target is re-exported
// here.
@_exported public import SWCredCore
@_exported public import SWCredKit
@_exported public import SWCredStore
@_exported public import SWCredPasskeys
@_exported public import SWCredTesting
