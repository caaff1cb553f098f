package import SWCredStore

/// One credential of a browser-test document, checked (``PasskeyImportDocument``): the passkey
/// with its raw P-256 scalar and count, and the user names when the document has them.
package struct ImportedPasskey: Sendable, CustomStringConvertible {
    /// The passkey (names empty; ``userName`` and ``displayName`` carry the document's).
    package var passkey: PasskeyItem
    /// `userName` (CDP), or `nil` when the document has none (Playwright).
    package var userName: String?
    /// `userDisplayName` (CDP), or `nil`.
    package var displayName: String?

    /// The public attributes only.
    package var description: String {
        "ImportedPasskey(rpID: \(passkey.rpID), signCount: \(passkey.signCount), privateKey: <redacted>)"
    }
}
