import Foundation
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredStore

extension BatchCommand {
    /// A `passkey-register` or `passkey-assert` line: the `options` member is the WebAuthn options
    /// object, run as the batch's app exactly as `swcred passkey register|assert` runs it.
    /// The line runs on the group's working contents, so it is saved by the group's one durable
    /// write and its result printed after it, like every other line.
    func runPasskey(_ request: BatchRequest, backend: TransactionBackend, app swcApp: SWCApp) throws(SWCredError)
        -> BatchResult
    {
        let forceDeveloper = app.device.developerMode
        let forceManaged = app.device.managed
        func caller(_ contents: StoreContents) -> PasskeyCaller {
            var device = contents.settings
            if forceDeveloper { device.developerMode = true }
            if forceManaged { device.managedDevice = true }
            return .app(swcApp, device: device)
        }
        // The line again, under the options reader's limits (depth 16, 8 KiB strings, 256 members).
        let line = try WebAuthnJSON.parse(Array(request.text.utf8))
        guard let options = line.objectValue?["options"], options.objectValue != nil else {
            throw SWCredError(.malformedInput, "line \(request.line): \(request.op) needs an \"options\" object")
        }
        let user = request.user ?? "allow"
        guard user == "allow" || user == "cancel" else {
            throw SWCredError(.malformedInput, "line \(request.line): \"user\" is allow or cancel for passkeys")
        }
        let pick = request.pick ?? "first"
        let responder: PasskeyResponder = { prompt in
            if user == "cancel" || pick == "cancel" { return .cancel }
            if pick == "first" { return .allow }
            return .choose(prompt.userNames.firstIndex(of: pick) ?? -1)
        }
        if request.op == "passkey-register" {
            let parsed = try PublicKeyCredentialCreationOptions(value: options, asApp: true)
            let response = try backend.modify {
                (contents: inout StoreContents, now: Date) throws(SWCredError) -> RegistrationResponse in
                try PasskeyAuthenticator.register(
                    parsed, caller: caller(contents), responder: responder, in: &contents, at: now)
            }
            return BatchResult(request, exit: 0, body: .passkeyRegistration(response))
        }
        let parsed = try PublicKeyCredentialRequestOptions(value: options, asApp: true)
        let response = try backend.modify {
            (contents: inout StoreContents, now: Date) throws(SWCredError) -> AuthenticationResponse in
            try PasskeyAuthenticator.authenticate(
                parsed, caller: caller(contents), responder: responder, in: &contents, at: now)
        }
        return BatchResult(request, exit: 0, body: .passkeyAssertion(response))
    }
}
