public import FoundationEssentials
import SWCredPasskeys
import SWCredStore

extension InMemoryPasskeyKeychain {
    /// A passkey as a test asserts on it: who and where, never the private key.
    public struct Passkey: Sendable, Hashable {
        /// The relying party identifier.
        public let rpID: String
        /// The credential ID (a response's `rawId`, decoded).
        public let credentialID: [UInt8]
        /// The user handle (`user.id`).
        public let userHandle: [UInt8]
        /// `user.name`.
        public let userName: String
        /// `user.displayName`.
        public let displayName: String
        /// When it was registered or seeded.
        public let creationDate: Date
        /// When it was registered or last used to sign in.
        public let lastUsedDate: Date

        /// The credential ID as base64url, as a response's `id` and `rawId` give it.
        public var credentialIDBase64URL: String { Base64URL.encode(credentialID) }

        init(_ item: PasskeyItem) {
            rpID = item.rpID
            credentialID = item.credentialID
            userHandle = item.userHandle
            userName = item.userName
            displayName = item.displayName
            creationDate = item.creationDate
            lastUsedDate = item.lastUsedDate
        }
    }
}
