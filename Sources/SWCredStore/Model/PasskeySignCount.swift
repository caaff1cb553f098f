/// The sign-count rule (cli.md "Browser tests"; WebAuthn Level 3 §6.1.1), in the one place that
/// `passkey assert`, `passkey export` and `passkey import` share.
///
/// A passkey's stored count is the count last reported. A passkey at 0 (every one `register`
/// makes, as iCloud Keychain) keeps reporting 0: a relying party skips the counter check for a
/// counter that is always 0. One imported at N > 0 reports N+1, N+2, … on each assertion, so a
/// relying party that saw N from a browser accepts swcred's next assertion. The count never goes
/// back: it stops at 2³²−1 rather than wrap, and an import never lowers it.
package enum PasskeySignCount {
    /// The count an assertion reports, and stores, after `stored`.
    package static func next(after stored: UInt32) -> UInt32 {
        guard stored != 0 else { return 0 }
        return stored == .max ? .max : stored + 1
    }

    /// Whether an imported copy of a stored passkey (same RP ID and credential ID) replaces it:
    /// only when its count is not lower than the stored one (a stale document never rolls a count back).
    package static func importReplaces(stored: UInt32, imported: UInt32) -> Bool {
        imported >= stored
    }
}
