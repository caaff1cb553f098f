public import FoundationEssentials
package import SWCredCore

// Apple-source-compatible names for the platform passkey requests (AuthenticationServices), so
// code written against `ASAuthorizationPlatformPublicKeyCredentialProvider` reads the same. The
// requests run through ``PasskeyCredentials/perform(_:)-(ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest)``
// instead of `ASAuthorizationController`.

/// `ASAuthorizationPlatformPublicKeyCredentialProvider`.
public struct ASAuthorizationPlatformPublicKeyCredentialProvider: Sendable, Hashable {
    /// The RP ID.
    public let relyingPartyIdentifier: String

    /// Creates a provider for an RP ID.
    public init(relyingPartyIdentifier: String) {
        self.relyingPartyIdentifier = relyingPartyIdentifier
    }

    /// A registration request.
    public func createCredentialRegistrationRequest(challenge: Data, name: String, userID: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest
    {
        ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest(
            relyingPartyIdentifier: relyingPartyIdentifier, challenge: challenge, name: name, userID: userID)
    }

    /// An assertion request.
    public func createCredentialAssertionRequest(challenge: Data) -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest {
        ASAuthorizationPlatformPublicKeyCredentialAssertionRequest(relyingPartyIdentifier: relyingPartyIdentifier, challenge: challenge)
    }
}

/// `ASAuthorizationPlatformPublicKeyCredentialDescriptor`.
public struct ASAuthorizationPlatformPublicKeyCredentialDescriptor: Sendable, Hashable {
    /// The credential ID.
    public var credentialID: Data
    /// Creates a descriptor.
    public init(credentialID: Data) { self.credentialID = credentialID }
}

/// `ASAuthorizationPublicKeyCredentialUserVerificationPreference`.
public enum ASAuthorizationPublicKeyCredentialUserVerificationPreference: String, Sendable, Hashable {
    case required, preferred, discouraged
}

/// `ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest`.
public struct ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest: Sendable, Hashable {
    public var relyingPartyIdentifier: String
    public var challenge: Data
    public var name: String
    public var displayName: String?
    public var userID: Data
    public var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference = .preferred
    /// iOS 17.4+: credentials that must not be registered again.
    public var excludedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor] = []
}

/// `ASAuthorizationPlatformPublicKeyCredentialAssertionRequest`.
public struct ASAuthorizationPlatformPublicKeyCredentialAssertionRequest: Sendable, Hashable {
    public var relyingPartyIdentifier: String
    public var challenge: Data
    public var allowedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor] = []
    public var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference = .preferred
}

/// `ASAuthorizationPlatformPublicKeyCredentialRegistration`.
public struct ASAuthorizationPlatformPublicKeyCredentialRegistration: Sendable, Hashable {
    public let credentialID: Data
    public let rawClientDataJSON: Data
    public let rawAttestationObject: Data?
    /// The response in its WebAuthn JSON form.
    public let response: RegistrationResponse
}

/// `ASAuthorizationPlatformPublicKeyCredentialAssertion`.
public struct ASAuthorizationPlatformPublicKeyCredentialAssertion: Sendable, Hashable {
    public let credentialID: Data
    public let rawClientDataJSON: Data
    public let rawAuthenticatorData: Data
    public let signature: Data
    public let userID: Data
    /// The response in its WebAuthn JSON form.
    public let response: AuthenticationResponse
}

extension PasskeyCredentials {
    /// Performs a registration request (what `ASAuthorizationController.performRequests()` does).
    /// - Throws: the errors of ``PasskeyFailure``, with `ASAuthorizationError` codes for an app.
    package func perform(_ request: ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest) async throws(SWCredError)
        -> ASAuthorizationPlatformPublicKeyCredentialRegistration
    {
        let json = Self.object([
            "rp": Self.object(["id": .string(request.relyingPartyIdentifier), "name": .string(request.relyingPartyIdentifier)]),
            "user": Self.object([
                "id": .string(Base64URL.encode(request.userID)), "name": .string(request.name),
                "displayName": .string(request.displayName ?? request.name),
            ]),
            "challenge": .string(Base64URL.encode(request.challenge)),
            "pubKeyCredParams": .array([Self.object(["type": .string("public-key"), "alg": .number(-7)])]),
            "authenticatorSelection": Self.object(["userVerification": .string(request.userVerificationPreference.rawValue)]),
            "excludeCredentials": .array(request.excludedCredentials.map(Self.descriptor)),
        ])
        let response = try await register(optionsJSON: try Self.serialise(json))
        return ASAuthorizationPlatformPublicKeyCredentialRegistration(
            credentialID: Self.data(response.rawId), rawClientDataJSON: Self.data(response.response.clientDataJSON),
            rawAttestationObject: Self.data(response.response.attestationObject), response: response)
    }

    /// Performs an assertion request.
    package func perform(_ request: ASAuthorizationPlatformPublicKeyCredentialAssertionRequest) async throws(SWCredError)
        -> ASAuthorizationPlatformPublicKeyCredentialAssertion
    {
        let json = Self.object([
            "rpId": .string(request.relyingPartyIdentifier), "challenge": .string(Base64URL.encode(request.challenge)),
            "allowCredentials": .array(request.allowedCredentials.map(Self.descriptor)),
            "userVerification": .string(request.userVerificationPreference.rawValue),
        ])
        let response = try await authenticate(optionsJSON: try Self.serialise(json))
        return ASAuthorizationPlatformPublicKeyCredentialAssertion(
            credentialID: Self.data(response.rawId), rawClientDataJSON: Self.data(response.response.clientDataJSON),
            rawAuthenticatorData: Self.data(response.response.authenticatorData), signature: Self.data(response.response.signature),
            userID: Self.data(response.response.userHandle), response: response)
    }

    private static func object(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(JSONObject(members.map { JSONObject.Member(key: $0.key, value: $0.value) }))
    }

    private static func descriptor(_ credential: ASAuthorizationPlatformPublicKeyCredentialDescriptor) -> JSONValue {
        object(["type": .string("public-key"), "id": .string(Base64URL.encode(credential.credentialID))])
    }

    private static func serialise(_ object: JSONValue) throws(SWCredError) -> [UInt8] {
        do {
            return Array(try JSONEncoder().encode(object))
        } catch {
            throw SWCredError(.invalidParameter, "the request could not be expressed as WebAuthn options")
        }
    }

    /// Our own base64url output always decodes.
    private static func data(_ text: String) -> Data { Data(Base64URL.decode(text) ?? []) }
}
