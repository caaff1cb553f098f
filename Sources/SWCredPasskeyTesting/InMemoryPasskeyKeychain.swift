public import Foundation
public import SWCredCore
public import SWCredPasskeys
public import SWCredStore
import Crypto
import SWCredSodium
import Synchronization

/// An in-memory passkey keychain for tests of login flows: the store's own contents type without
/// files or encryption, so passkeys and association records behave exactly as in the real store.
///
/// Approve the app's domains and seed passkeys here; run the ceremonies through
/// ``InMemoryPasskeyCredentials``; assert on ``passkeys``.
///
/// Example:
/// ```swift
/// let keychain = InMemoryPasskeyKeychain()
/// try keychain.approve(appID: "ABCDE12345.com.example.app", domain: "example.com")
/// let seeded = try keychain.seedPasskey(rpID: "example.com", userName: "alice")
/// let user = PasskeyPromptRecorder(answers: [.choose(0)])
/// let passkeys = InMemoryPasskeyCredentials(keychain: keychain, app: app, responder: user)
/// let assertion = try await passkeys.authenticate(optionsJSON: serverRequestOptions)
/// #expect(assertion.rawId == seeded.credentialIDBase64URL)
/// ```
public final class InMemoryPasskeyKeychain: PasskeyBackend {
    private let state: Mutex<StoreContents>
    private let clock: @Sendable () -> Date

    /// A passkey made by ``seedPasskey(rpID:userName:displayName:userHandle:)``: its ID and public key.
    public struct SeededPasskey: Sendable, Hashable {
        /// The credential ID.
        public let credentialID: [UInt8]
        /// The public key, SubjectPublicKeyInfo DER (what a server stores).
        public let publicKeyDER: [UInt8]
        /// The credential ID as base64url, as a response's `id` and `rawId` give it.
        public var credentialIDBase64URL: String { Base64URL.encode(credentialID) }
    }

    /// Creates an empty keychain.
    public init(clock: @escaping @Sendable () -> Date = { Date() }) {
        self.state = Mutex(StoreContents(creationDate: clock()))
        self.clock = clock
    }

    /// The contents as the store would hold them.
    public var contents: StoreContents { state.withLock { $0 } }

    /// Every passkey, in store order, without its private key.
    public var passkeys: [Passkey] { contents.passkeys.map(Passkey.init) }

    /// Records that `domain`'s site file lists `appID` under `webcredentials` (an approved record).
    public func approve(appID: String, domain: String) throws(SWCredError) {
        try state.withLock { (contents: inout StoreContents) throws(SWCredError) in
            _ = try contents.upsertAssociationRecord(
                AssociationRecord(
                    service: .webcredentials, appID: appID, host: HostName.lowercasedASCII(domain),
                    siteApproval: .approved, source: .manual))
        }
    }

    /// Adds a passkey as if the user had registered it earlier.
    public func seedPasskey(
        rpID: String, userName: String, displayName: String? = nil, userHandle: [UInt8]? = nil
    ) throws(SWCredError) -> SeededPasskey {
        let key = P256.Signing.PrivateKey()
        var raw = [UInt8](key.rawRepresentation)
        defer { Sodium.memzero(&raw) }
        let credentialID = try Sodium.randomBytes(PasskeyAuthenticator.credentialIDLength)
        let handle: [UInt8]
        if let userHandle { handle = userHandle } else { handle = try Sodium.randomBytes(16) }
        let item = PasskeyItem(
            credentialID: credentialID, rpID: HostName.lowercasedASCII(rpID), userHandle: handle, userName: userName,
            displayName: displayName ?? userName, privateKey: raw)
        let now = clock()
        try state.withLock { (contents: inout StoreContents) throws(SWCredError) in
            _ = try contents.addPasskey(item, at: now)
        }
        return SeededPasskey(credentialID: credentialID, publicKeyDER: [UInt8](key.publicKey.derRepresentation))
    }

    public func passkeyTransaction<R: Sendable>(
        _ body: @escaping @Sendable (inout StoreContents, Date) throws(SWCredError) -> R
    ) async throws(SWCredError) -> R {
        let now = clock()
        return try state.withLock { (contents: inout StoreContents) throws(SWCredError) -> R in
            var working = contents
            let result = try body(&working, now)
            contents = working
            return result
        }
    }
}
