// What importing `SWCredSecurity` brings with it: every swcred module whose types its public API shows
// (`SWCredError`, and `SharedWebCredentials` with the rest of the Kit), so that a user names them
// after `import SWCredSecurity` alone, never importing a module the package offers no product for
// (issue 29). PackageTests checks that every `public import` of a swcred module in this target is re-
// exported here.
@_exported public import SWCredCore
@_exported public import SWCredKit
