public import SWCredKit
public import SWCredPasskeys

/// Passkeys for one app (or web page) on an ``InMemoryPasskeyKeychain``, with a simulated user:
/// the passkey counterpart of `SharedWebCredentials(backend:app:responder:)` for a login-flow test.
///
/// Each ceremony runs as one transaction of the keychain, with the checks a device makes (the
/// app's `webcredentials` entry and the site's approval, PasskeyDecisions.md PK-1), the sheet
/// asked of `responder` (an `SWCPrompt` of kind `createPasskey` or `signInWithPasskey`), and the
/// WebAuthn response a relying party verifies. A failure writes nothing.
///
/// Three ways in, each for registration and sign-in: the WebAuthn JSON a server sends
/// (``register(optionsJSON:)``, ``authenticate(optionsJSON:)``), the options parsed from it
/// (``register(_:)-(PublicKeyCredentialCreationOptions)``), and Apple's AuthenticationServices
/// requests (``perform(_:)-(ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest)``).
///
/// Example:
/// ```swift
/// let keychain = InMemoryPasskeyKeychain()
/// try keychain.approve(appID: "ABCDE12345.com.example.app", domain: "example.com")
/// let app = SWCApp(appID: "ABCDE12345.com.example.app", associatedDomains: ["webcredentials:example.com"])
/// let user = PasskeyPromptRecorder(answers: [.allow, .choose(0)])
/// let passkeys = InMemoryPasskeyCredentials(keychain: keychain, app: app, responder: user)
///
/// let registration = try await passkeys.register(optionsJSON: serverCreationOptions)
/// let assertion = try await passkeys.authenticate(optionsJSON: serverRequestOptions)
/// #expect(assertion.id == registration.id)
/// #expect(user.kinds == [.createPasskey, .signInWithPasskey])
/// ```
///
/// Failures are `SWCredError`s; ``PasskeyFailure/init(_:)`` gives the WebAuthn failure, and an
/// app's errors carry the `ASAuthorizationError` code (`errorDomain`, `errorCode`).
public struct InMemoryPasskeyCredentials: Sendable {
    /// Where the passkeys are kept.
    public let keychain: InMemoryPasskeyKeychain
    /// The app or page asking.
    public let caller: PasskeyCaller
    /// The simulated user, asked through ``SWCPromptResponder/answerNow(to:)``.
    public let responder: any SWCPromptResponder

    private var credentials: PasskeyCredentials {
        PasskeyCredentials(backend: keychain, caller: caller, responder: responder)
    }

    /// Passkeys for `caller` (an app with its device settings, or a browser origin).
    public init(keychain: InMemoryPasskeyKeychain, caller: PasskeyCaller, responder: any SWCPromptResponder) {
        self.keychain = keychain
        self.caller = caller
        self.responder = responder
    }

    /// Passkeys for `app` on a device with `device` settings (default: AutoFill on, developer
    /// mode off, unmanaged).
    public init(
        keychain: InMemoryPasskeyKeychain, app: SWCApp, device: SWCDeviceSettings = SWCDeviceSettings(),
        responder: any SWCPromptResponder
    ) {
        self.init(keychain: keychain, caller: .app(app, device: device), responder: responder)
    }

    // MARK: WebAuthn JSON

    /// Registers a passkey from `PublicKeyCredentialCreationOptionsJSON` (what a server's
    /// `generateRegistrationOptions` sends).
    /// - Returns: the `RegistrationResponseJSON` to post back (`Encodable`).
    /// - Throws: `invalidParameter` for options that do not parse, else the failures of
    ///   ``PasskeyFailure`` (not associated, canceled, excluded credential, …).
    public func register(optionsJSON: String) async throws(SWCredError) -> RegistrationResponse {
        try await credentials.register(optionsJSON: Array(optionsJSON.utf8))
    }

    /// Signs in with a passkey from `PublicKeyCredentialRequestOptionsJSON`.
    /// - Returns: the `AuthenticationResponseJSON` to post back (`Encodable`).
    /// - Throws: `invalidParameter` for options that do not parse, else the failures of
    ///   ``PasskeyFailure`` (no credentials, canceled, not associated, …).
    public func authenticate(optionsJSON: String) async throws(SWCredError) -> AuthenticationResponse {
        try await credentials.authenticate(optionsJSON: Array(optionsJSON.utf8))
    }

    // MARK: Parsed options

    /// Registers a passkey from parsed options.
    public func register(_ options: PublicKeyCredentialCreationOptions) async throws(SWCredError)
        -> RegistrationResponse
    {
        try await credentials.register(options)
    }

    /// Signs in with a passkey from parsed options.
    public func authenticate(_ options: PublicKeyCredentialRequestOptions) async throws(SWCredError)
        -> AuthenticationResponse
    {
        try await credentials.authenticate(options)
    }

    // MARK: Apple's AuthenticationServices requests

    /// Performs a registration request made by an
    /// ``ASAuthorizationPlatformPublicKeyCredentialProvider`` (`createCredentialRegistrationRequest`),
    /// as `ASAuthorizationController.performRequests()` would.
    public func perform(_ request: ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest)
        async throws(SWCredError)
        -> ASAuthorizationPlatformPublicKeyCredentialRegistration
    {
        try await credentials.perform(request)
    }

    /// Performs an assertion request made by an
    /// ``ASAuthorizationPlatformPublicKeyCredentialProvider`` (`createCredentialAssertionRequest`).
    public func perform(_ request: ASAuthorizationPlatformPublicKeyCredentialAssertionRequest) async throws(SWCredError)
        -> ASAuthorizationPlatformPublicKeyCredentialAssertion
    {
        try await credentials.perform(request)
    }
}
