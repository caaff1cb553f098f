package import FoundationEssentials
package import SWCredCore

/// One passkey (a discoverable WebAuthn credential, as iCloud Keychain keeps it), stored beside
/// the internet passwords in the same sealed payload (payload schema 2, ``StoreFormat``).
///
/// ``privateKey`` is the raw 32-byte P-256 scalar. It lives only inside the encrypted payload;
/// `description`, `debugDescription` and `dump` print a redaction marker in its place, and
/// callers that sign copy it into guarded memory (`SecureBytes`) first.
///
/// Passkeys are unique by (``rpID``, ``credentialID``) and, as WebAuthn's authenticatorMakeCredential
/// requires, by (``rpID``, ``userHandle``): a new registration for the same user replaces the old one.
package struct PasskeyItem: Sendable, Hashable {
    /// The credential ID (1–1023 bytes, WebAuthn §5.8.1 limit).
    package var credentialID: [UInt8]
    /// The relying party identifier (a lowercase domain, 1–253 bytes).
    package var rpID: String
    /// The user handle (`user.id`, 1–64 bytes, WebAuthn §5.4.3).
    package var userHandle: [UInt8]
    /// `user.name` (0–512 bytes).
    package var userName: String
    /// `user.displayName` (0–512 bytes).
    package var displayName: String
    /// The raw P-256 private scalar (exactly 32 bytes). Never printed.
    package var privateKey: [UInt8]
    /// Set by the store on add.
    package var creationDate: Date
    /// Set on add and on every assertion.
    package var lastUsedDate: Date
    /// The signature counter last reported (WebAuthn §6.1.1): 0 for every passkey `register` makes,
    /// and it stays 0; a passkey imported at N > 0 reports N+1, N+2, … (``PasskeySignCount``).
    /// Stored from payload schema 4 on.
    package var signCount: UInt32

    /// The private key's size.
    static let privateKeyLength = 32
    /// WebAuthn's credential ID ceiling.
    package static let maxCredentialIDBytes = 1023
    /// WebAuthn's user handle ceiling.
    package static let maxUserHandleBytes = 64
    /// The user name and display name ceiling.
    package static let maxNameBytes = 512

    /// Creates a passkey item. Dates default to the epoch; the store sets them on add.
    package init(
        credentialID: [UInt8], rpID: String, userHandle: [UInt8], userName: String, displayName: String,
        privateKey: [UInt8], creationDate: Date = Date(timeIntervalSince1970: 0),
        lastUsedDate: Date = Date(timeIntervalSince1970: 0), signCount: UInt32 = 0
    ) {
        self.credentialID = credentialID
        self.rpID = rpID
        self.userHandle = userHandle
        self.userName = userName
        self.displayName = displayName
        self.privateKey = privateKey
        self.creationDate = creationDate
        self.lastUsedDate = lastUsedDate
        self.signCount = signCount
    }

    /// Checks every field against its limit.
    /// - Throws: `invalidParameter` naming the field (never its value for the key).
    package func validate() throws(SWCredError) {
        guard !credentialID.isEmpty, credentialID.count <= Self.maxCredentialIDBytes else {
            throw SWCredError(.invalidParameter, "a passkey's credential ID must be 1-1023 bytes")
        }
        guard !rpID.isEmpty, rpID.utf8.count <= HostName.maximumLength else {
            throw SWCredError(.invalidParameter, "a passkey's RP ID must be 1-253 bytes")
        }
        guard !userHandle.isEmpty, userHandle.count <= Self.maxUserHandleBytes else {
            throw SWCredError(.invalidParameter, "a passkey's user handle must be 1-64 bytes")
        }
        guard userName.utf8.count <= Self.maxNameBytes, displayName.utf8.count <= Self.maxNameBytes else {
            throw SWCredError(.invalidParameter, "a passkey's user name and display name are at most 512 bytes")
        }
        guard privateKey.count == Self.privateKeyLength else {
            throw SWCredError(.invalidParameter, "a passkey's private key must be 32 bytes")
        }
    }
}

extension PasskeyItem: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The public attributes; the private key is a redaction marker.
    package var description: String {
        "PasskeyItem(rpID: \(rpID), userName: \(userName), credentialID: \(credentialID.count) bytes, privateKey: <redacted>)"
    }

    /// Same as ``description``.
    package var debugDescription: String { description }

    /// A mirror without the private key.
    package var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "credentialID": credentialID, "rpID": rpID, "userHandle": userHandle, "userName": userName,
                "displayName": displayName, "privateKey": "<redacted>", "creationDate": creationDate,
                "lastUsedDate": lastUsedDate, "signCount": signCount,
            ],
            displayStyle: .struct
        )
    }
}

extension StoreContents {
    /// Passkeys for `rpID` (exact bytes), in insertion order.
    package func passkeys(rpID: String) -> [PasskeyItem] {
        passkeys.filter { ExactBytes.equal($0.rpID, rpID) }
    }

    /// The passkey with this RP ID and credential ID, if any.
    package func passkey(rpID: String, credentialID: [UInt8]) -> PasskeyItem? {
        passkeys.first { ExactBytes.equal($0.rpID, rpID) && $0.credentialID == credentialID }
    }

    /// Adds a passkey, replacing the passkey of the same RP ID and user handle (WebAuthn
    /// authenticatorMakeCredential, step 7). Both dates are set to `date`.
    /// - Returns: the passkey it replaced, if any.
    /// - Throws: `invalidParameter` (a field over its limit), `duplicateItem` (the credential ID is
    ///   taken), `limitExceeded` (items and passkeys together over `maxItems`).
    @discardableResult
    package mutating func addPasskey(_ passkey: PasskeyItem, at date: Date) throws(SWCredError) -> PasskeyItem? {
        var passkey = passkey
        let stamp = date.roundedToMilliseconds
        passkey.creationDate = stamp
        passkey.lastUsedDate = stamp
        try passkey.validate()
        guard self.passkey(rpID: passkey.rpID, credentialID: passkey.credentialID) == nil else {
            throw SWCredError(.duplicateItem, "a passkey with this credential ID already exists for \(passkey.rpID)")
        }
        let replacedIndex = passkeys.firstIndex {
            ExactBytes.equal($0.rpID, passkey.rpID) && $0.userHandle == passkey.userHandle
        }
        if let replacedIndex {
            let old = passkeys[replacedIndex]
            passkeys[replacedIndex] = passkey
            return old
        }
        guard items.count + passkeys.count < limits.maxItems else {
            throw SWCredError(.limitExceeded, "the store holds \(items.count + passkeys.count) items; the limit is \(limits.maxItems)")
        }
        passkeys.append(passkey)
        return nil
    }

    /// Sets the last-use date of a passkey and advances its signature counter
    /// (``PasskeySignCount/next(after:)``: 0 stays 0).
    /// - Returns: the count this use reports (the authenticator data's `signCount`).
    /// - Throws: `itemNotFound`.
    @discardableResult
    package mutating func markPasskeyUsed(
        rpID: String, credentialID: [UInt8], at date: Date
    ) throws(SWCredError) -> UInt32 {
        guard let index = passkeys.firstIndex(where: { ExactBytes.equal($0.rpID, rpID) && $0.credentialID == credentialID })
        else { throw SWCredError(.itemNotFound, "no passkey with this credential ID for \(rpID)") }
        passkeys[index].lastUsedDate = date.roundedToMilliseconds
        let count = PasskeySignCount.next(after: passkeys[index].signCount)
        passkeys[index].signCount = count
        return count
    }

    /// Removes a passkey.
    /// - Returns: the removed passkey.
    /// - Throws: `itemNotFound`.
    @discardableResult
    package mutating func deletePasskey(rpID: String, credentialID: [UInt8]) throws(SWCredError) -> PasskeyItem {
        guard let index = passkeys.firstIndex(where: { ExactBytes.equal($0.rpID, rpID) && $0.credentialID == credentialID })
        else { throw SWCredError(.itemNotFound, "no passkey with this credential ID for \(rpID)") }
        return passkeys.remove(at: index)
    }
}
