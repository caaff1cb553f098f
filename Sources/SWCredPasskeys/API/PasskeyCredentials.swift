import FoundationEssentials
import SWCredStore
package import SWCredKit
package import SWCredCore

/// The async Swift API: registration and assertion for one caller on one backend, with the
/// simulated user's answers from a responder.
///
/// Example:
/// ```swift
/// let passkeys = PasskeyCredentials(backend: store, caller: .app(app, device: SWCDeviceSettings()))
/// let registration = try await passkeys.register(optionsJSON: Array(serverOptions.utf8))
/// ```
package struct PasskeyCredentials: Sendable {
    /// Where passkeys are kept.
    package let backend: any PasskeyBackend
    /// The app or page asking.
    package let caller: PasskeyCaller
    /// The simulated user, asked through ``SWCPromptResponder/answerNow(to:)``.
    package let responder: any SWCPromptResponder

    /// Creates the API. The default user allows every sheet and picks the first account.
    package init(
        backend: any PasskeyBackend, caller: PasskeyCaller,
        responder: any SWCPromptResponder = PasskeyUser(cancels: false)
    ) {
        self.backend = backend
        self.caller = caller
        self.responder = responder
    }

    /// Registers from `PublicKeyCredentialCreationOptionsJSON`.
    package func register(optionsJSON: [UInt8]) async throws(SWCredError) -> RegistrationResponse {
        try await register(try PublicKeyCredentialCreationOptions(json: optionsJSON, asApp: caller.isApp))
    }

    /// Registers from parsed options.
    package func register(_ options: PublicKeyCredentialCreationOptions) async throws(SWCredError) -> RegistrationResponse {
        try await transaction(options, PasskeyAuthenticator.register)
    }

    /// Signs in from `PublicKeyCredentialRequestOptionsJSON`.
    package func authenticate(optionsJSON: [UInt8]) async throws(SWCredError) -> AuthenticationResponse {
        try await authenticate(try PublicKeyCredentialRequestOptions(json: optionsJSON, asApp: caller.isApp))
    }

    /// Signs in from parsed options.
    package func authenticate(_ options: PublicKeyCredentialRequestOptions) async throws(SWCredError) -> AuthenticationResponse {
        try await transaction(options, PasskeyAuthenticator.authenticate)
    }

    /// Runs one ceremony of ``PasskeyAuthenticator`` for this caller and responder as one
    /// transaction of the backend.
    private func transaction<Options: Sendable, Response: Sendable>(
        _ options: Options,
        _ ceremony: @escaping @Sendable (Options, PasskeyCaller, any SWCPromptResponder, inout StoreContents, Date)
            throws(SWCredError) -> Response
    ) async throws(SWCredError) -> Response {
        let caller = self.caller
        let responder = self.responder
        return try await backend.passkeyTransaction { (contents: inout StoreContents, now: Date) throws(SWCredError) in
            try ceremony(options, caller, responder, &contents, now)
        }
    }
}
