// What importing `SWCredArtifacts` brings with it: every swcred module whose types its public API
// shows (`SWCredError`, `Entitlements`), so that a user names them after `import SWCredArtifacts`
// alone (issue 29). PackageTests checks that every `public import` of a swcred module in this
// target is re-exported here.
@_exported public import SWCredCore
@_exported public import SWCredAssociation
