import Foundation
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredStore

extension BatchCommand {
    /// A `passkey-register` or `passkey-assert` line: the `options` member is the WebAuthn options
    /// object, run as the batch's app exactly as `swcred passkey register|assert` runs it.
    func runPasskey(_ request: BatchRequest, backend: StoreBackend, app swcApp: SWCApp) async throws(SWCredError) -> BatchResult {
        let line = try JSONValue.parse(Array(request.text.utf8))
        guard let options = line.object?["options"], options.object != nil else {
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
            let response = try await PasskeyCallerOptions.asApp(store: backend.store, app: swcApp, device: app.device) {
                (caller: PasskeyCaller, contents: inout StoreContents, now: Date) throws(SWCredError) -> RegistrationResponse in
                try PasskeyAuthenticator.register(parsed, caller: caller, responder: responder, in: &contents, at: now)
            }
            return BatchResult(request, exit: 0, body: .passkeyRegistration(response))
        }
        let parsed = try PublicKeyCredentialRequestOptions(value: options, asApp: true)
        let response = try await PasskeyCallerOptions.asApp(store: backend.store, app: swcApp, device: app.device) {
            (caller: PasskeyCaller, contents: inout StoreContents, now: Date) throws(SWCredError) -> AuthenticationResponse in
            try PasskeyAuthenticator.authenticate(parsed, caller: caller, responder: responder, in: &contents, at: now)
        }
        return BatchResult(request, exit: 0, body: .passkeyAssertion(response))
    }
}
