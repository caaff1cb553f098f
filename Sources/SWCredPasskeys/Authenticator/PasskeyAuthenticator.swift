public import FoundationEssentials
public import SWCredCore
import SWCredSodium
public import SWCredStore
public import SWCredKit
import Crypto

/// The platform authenticator: registration (`navigator.credentials.create` /
/// `ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest`) and assertion
/// (`navigator.credentials.get` / `…AssertionRequest`) over a store's contents, as iCloud Keychain
/// does them (PasskeyDecisions.md).
///
/// Both run inside one store transaction: every check happens before anything is written, and a
/// failure throws, so the transaction writes nothing. Private keys are copied into guarded memory
/// (`SecureBytes`) to sign and never appear in a result, an error or a description.
public enum PasskeyAuthenticator {
    /// The length of the credential IDs swcred makes (PK-4 Decision: 20 bytes, as iCloud Keychain).
    package static let credentialIDLength = 20

    // MARK: Registration

    /// Registers a passkey (PK-1 order of checks).
    ///
    /// 1. RP ID: `rp.id` (a browser defaults it to its origin's host; an app must give it).
    /// 2. The caller may use it: an app's active, approved `webcredentials` entry (SecurityError,
    ///    exit 11/12) or a browser origin's host or registrable suffix (SecurityError, exit 50).
    /// 3. ES256 is among `pubKeyCredParams` (NotSupportedError).
    /// 4. The user is asked; cancel is NotAllowedError. A passkey of `excludeCredentials` already
    ///    here is InvalidStateError once the user consented (WebAuthn §6.3.2 step 3).
    /// 5. A new P-256 key and credential ID; a passkey of the same RP ID and user handle is replaced.
    public static func register(
        _ options: PublicKeyCredentialCreationOptions, caller: PasskeyCaller, responder: any SWCPromptResponder,
        in contents: inout StoreContents, at now: Date
    ) throws(SWCredError) -> RegistrationResponse {
        let rpID = try authorizedRelyingParty(options.rpID, caller: caller, contents: contents)
        guard options.allowsES256 else {
            throw PasskeyFailure.notSupported.error(
                "none of the algorithms of pubKeyCredParams is supported (only ES256, -7)", asApp: caller.isApp)
        }
        let excluded = options.excludeCredentials.contains { contents.passkey(rpID: rpID, credentialID: $0.id) != nil }
        let prompt = SWCPrompt(
            kind: .createPasskey, appName: caller.displayName, domain: rpID,
            candidates: [SWCPrompt.Candidate(server: rpID, account: options.userName)])
        switch responder.answerNow(to: prompt) {
        case .cancel, .notNow: throw PasskeyFailure.canceled.error("the user canceled the request", asApp: caller.isApp)
        case .allow, .choose: break
        }
        guard !excluded else {
            throw PasskeyFailure.excludedCredential.error(
                "a passkey of excludeCredentials is already registered for \(rpID)", asApp: caller.isApp)
        }

        let key = P256.Signing.PrivateKey()
        // swift-crypto's Data is wiped in place (this variable holds its only reference).
        var rawData = key.rawRepresentation
        var raw = [UInt8](rawData)
        rawData.withUnsafeMutableBytes { Sodium.memzero($0) }
        defer { Sodium.memzero(&raw) }
        let credentialID = try Sodium.randomBytes(credentialIDLength)
        try contents.addPasskey(
            PasskeyItem(
                credentialID: credentialID, rpID: rpID, userHandle: options.userID, userName: options.userName,
                displayName: options.userDisplayName, privateKey: raw),
            at: now)

        let coseKey = AuthenticatorData.coseKey(key.publicKey)
        let authData = AuthenticatorData.registration(rpID: rpID, credentialID: credentialID, coseKey: coseKey)
        let clientData = CollectedClientData(type: .create, challenge: options.challenge, origin: origin(rpID: rpID, caller: caller))
        let id = Base64URL.encode(credentialID)
        return RegistrationResponse(
            id: id, rawId: id,
            response: .init(
                clientDataJSON: Base64URL.encode(clientData.json), authenticatorData: Base64URL.encode(authData),
                transports: ["hybrid", "internal"], publicKey: Base64URL.encode(key.publicKey.derRepresentation),
                publicKeyAlgorithm: -7,
                attestationObject: Base64URL.encode(AuthenticatorData.attestationObject(authData: authData))),
            authenticatorAttachment: "platform",
            clientExtensionResults: ClientExtensionResults(credProps: options.credPropsRequested ? .init(rk: true) : nil),
            type: "public-key")
    }

    // MARK: Assertion

    /// Signs in with a passkey.
    ///
    /// 1–2. RP ID and caller as for registration.
    /// 3. The candidates: passkeys of the RP ID, limited to `allowCredentials` when it is not empty;
    ///    none is NotAllowedError (exit 44).
    /// 4. The user picks one (cancel: NotAllowedError, exit 13).
    /// 5. The signature over `authenticatorData || SHA-256(clientDataJSON)`; the last-use date is
    ///    updated and the sign count advanced (`PasskeySignCount`), which the authenticator data carries.
    public static func authenticate(
        _ options: PublicKeyCredentialRequestOptions, caller: PasskeyCaller, responder: any SWCPromptResponder,
        in contents: inout StoreContents, at now: Date
    ) throws(SWCredError) -> AuthenticationResponse {
        let rpID = try authorizedRelyingParty(options.rpID, caller: caller, contents: contents)
        var candidates = contents.passkeys(rpID: rpID)
        if !options.allowCredentials.isEmpty {
            let allowed = Set(options.allowCredentials.map(\.id))
            candidates = candidates.filter { allowed.contains($0.credentialID) }
        }
        guard !candidates.isEmpty else {
            throw PasskeyFailure.noCredentials.error("no passkey for \(rpID) is available", asApp: caller.isApp)
        }
        let prompt = SWCPrompt(
            kind: .signInWithPasskey, appName: caller.displayName, domain: rpID,
            candidates: candidates.map { SWCPrompt.Candidate(server: rpID, account: $0.userName) })
        let chosen: PasskeyItem
        switch responder.answerNow(to: prompt) {
        case .cancel, .notNow: throw PasskeyFailure.canceled.error("the user canceled the request", asApp: caller.isApp)
        case .allow: chosen = candidates[0]
        case .choose(let index):
            guard candidates.indices.contains(index) else {
                throw PasskeyFailure.noCredentials.error(
                    "the chosen passkey is not offered for \(rpID)", asApp: caller.isApp)
            }
            chosen = candidates[index]
        }

        let clientData = CollectedClientData(type: .get, challenge: options.challenge, origin: origin(rpID: rpID, caller: caller))
        let clientJSON = clientData.json
        // The count this assertion reports (PasskeySignCount: 0 stays 0, N goes to N+1), stored with
        // the last-use date; a failure below throws and the transaction keeps neither.
        let signCount = try contents.markPasskeyUsed(rpID: rpID, credentialID: chosen.credentialID, at: now)
        let authData = AuthenticatorData.assertion(rpID: rpID, signCount: signCount)
        let signature = try sign(authData + Array(SHA256.hash(data: clientJSON)), with: chosen.privateKey)
        let id = Base64URL.encode(chosen.credentialID)
        return AuthenticationResponse(
            id: id, rawId: id,
            response: .init(
                clientDataJSON: Base64URL.encode(clientJSON), authenticatorData: Base64URL.encode(authData),
                signature: Base64URL.encode(signature), userHandle: Base64URL.encode(chosen.userHandle)),
            authenticatorAttachment: "platform", clientExtensionResults: ClientExtensionResults(credProps: nil),
            type: "public-key", userName: chosen.userName)
    }

    // MARK: Checks

    /// The RP ID of a request: the option's, or a browser's origin host.
    /// Steps 1–2 of both ceremonies: the RP ID (the options', or a browser origin's host), once
    /// the caller has been found to be allowed to use it.
    static func authorizedRelyingParty(
        _ option: String?, caller: PasskeyCaller, contents: StoreContents
    ) throws(SWCredError) -> String {
        let rpID = try relyingParty(option, caller: caller)
        try authorize(rpID: rpID, caller: caller, contents: contents)
        return rpID
    }

    static func relyingParty(_ option: String?, caller: PasskeyCaller) throws(SWCredError) -> String {
        if let option { return option }
        switch caller {
        case .browser(let origin), .relatedOrigin(let origin, _): return origin.host
        case .app: throw PasskeyFailure.invalidOptions.error("an app's request needs the RP ID (rp.id / rpId)", asApp: true)
        case .androidApp:
            throw PasskeyFailure.invalidOptions.error(
                "an Android app's request needs the RP ID (rp.id / rpId)", asApp: false)
        }
    }

    /// The association check (app) or the origin check (browser).
    static func authorize(rpID: String, caller: PasskeyCaller, contents: StoreContents) throws(SWCredError) {
        switch caller {
        case .browser(let origin):
            guard RelyingPartyID.isValid(rpID, forHost: origin.host) else {
                throw PasskeyFailure.originNotAllowed.error(
                    "the RP ID \(rpID) is not \(origin.host) or a registrable suffix of it", asApp: false)
            }
        case .relatedOrigin(let origin, let file):
            if RelyingPartyID.isValid(rpID, forHost: origin.host) { return }
            try RelyingPartyID.authorizeRelatedOrigin(origin, rpID: rpID, file: file)
        case .app(let app, let device):
            guard let appID = app.appID, !appID.isEmpty else {
                throw PasskeyFailure.notAssociated.error("Missing application-identifier entitlement", asApp: true)
            }
            let notAssociated = "Application with identifier \(appID) is not associated with domain \(rpID)"
            let entries = app.webCredentialsEntries.filter {
                $0.isActive(settings: device, app: app) && $0.covers(host: rpID, port: nil)
            }
            guard !entries.isEmpty else { throw PasskeyFailure.notAssociated.error(notAssociated, asApp: true) }
            let approved = entries.contains {
                contents.sharedWebCredentialsApproval(for: $0.recordKey(appID: appID))?.site == .approved
            }
            guard approved else { throw PasskeyFailure.siteNotApproved.error(notAssociated, asApp: true) }
        case .androidApp(let app):
            // The RP ID's assetlinks.json was read before the transaction (AndroidPasskeyApp.approve).
            guard app.relyingPartyID == rpID else {
                throw PasskeyFailure.siteNotApproved.error(
                    "RP ID cannot be validated: \(app.packageName) was approved for \(app.relyingPartyID), not \(rpID)",
                    asApp: false)
            }
        }
    }

    /// The origin of clientDataJSON: the page's, `https://<rpID>` for an app (PK-2 Decision), or
    /// an Android app's `android:apk-key-hash:…` (PK-10, DAL-Q4).
    static func origin(rpID: String, caller: PasskeyCaller) -> String {
        switch caller {
        case .browser(let origin), .relatedOrigin(let origin, _): origin.description
        case .app: "https://\(rpID)"
        case .androidApp(let app): app.origin
        }
    }

    /// An ES256 signature (DER) of `message`, with the key copied into guarded memory.
    static func sign(_ message: [UInt8], with privateKey: [UInt8]) throws(SWCredError) -> [UInt8] {
        let secure = try SecureBytes(copying: privateKey)
        do {
            let key = try secure.withUnsafeBytes { raw in try P256.Signing.PrivateKey(rawRepresentation: raw) }
            return Array(try key.signature(for: message).derRepresentation)
        } catch {
            throw SWCredError(.internalError, "a stored passkey's key could not sign")
        }
    }
}
