// What importing `SWCredPasswords` brings with it: every swcred module whose types its public API
// shows (`SWCredError`), so that a user names them after `import SWCredPasswords` alone, never
// importing a module the package offers no product for (issue 29). PackageTests checks that every
// `public import` of a swcred module in this target is re-exported here.
@_exported public import SWCredCore
