/// `RegistrationResponseJSON` (WebAuthn Level 3 §5.1, `PublicKeyCredential.toJSON()`).
public struct RegistrationResponse: Sendable, Hashable, Encodable {
    /// `AuthenticatorAttestationResponseJSON`.
    public struct Response: Sendable, Hashable, Encodable {
        public let clientDataJSON: String
        public let authenticatorData: String
        public let transports: [String]
        public let publicKey: String
        public let publicKeyAlgorithm: Int
        public let attestationObject: String
    }

    /// The credential ID, base64url.
    public let id: String
    /// Same as ``id``.
    public let rawId: String
    /// The attestation response.
    public let response: Response
    /// `platform`.
    public let authenticatorAttachment: String
    /// `{}`, or `{"credProps":{"rk":true}}` when asked for.
    public let clientExtensionResults: ClientExtensionResults
    /// `public-key`.
    public let type: String
}

/// `AuthenticationResponseJSON`.
public struct AuthenticationResponse: Sendable, Hashable, Encodable {
    /// `AuthenticatorAssertionResponseJSON`.
    public struct Response: Sendable, Hashable, Encodable {
        public let clientDataJSON: String
        public let authenticatorData: String
        public let signature: String
        public let userHandle: String
    }

    /// The credential ID, base64url.
    public let id: String
    /// Same as ``id``.
    public let rawId: String
    /// The assertion response.
    public let response: Response
    /// `platform`.
    public let authenticatorAttachment: String
    /// `{}`.
    public let clientExtensionResults: ClientExtensionResults
    /// `public-key`.
    public let type: String
    /// The user name of the passkey used (not part of the WebAuthn form; for the caller's display).
    public let userName: String

    private enum CodingKeys: String, CodingKey {
        case id, rawId, response, authenticatorAttachment, clientExtensionResults, type
    }
}

/// `AuthenticationExtensionsClientOutputsJSON`.
public struct ClientExtensionResults: Sendable, Hashable, Encodable {
    /// `credProps`.
    public struct CredProps: Sendable, Hashable, Encodable {
        /// Always `true`: passkeys are discoverable.
        public let rk: Bool
    }

    /// Present when the options asked for `credProps`.
    public let credProps: CredProps?

    private enum CodingKeys: String, CodingKey { case credProps }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(credProps, forKey: .credProps)
    }
}
