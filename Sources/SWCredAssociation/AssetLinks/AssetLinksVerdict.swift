/// One verifier's answer to "does the source grant the relation to the target" (DAL-Q1), with
/// the reason a person reads (`verify`'s `"verifiers":{"google":{"trusted","reason"},…}`).
package struct AssetLinksVerdict: Sendable, Hashable, CustomStringConvertible {
    /// Whose answer.
    package let verifier: AssetLinksVerifier
    /// Whether the relation holds.
    package let linked: Bool
    /// Why, in one sentence: the statement that grants it, or what is missing or wrong.
    package let reason: String

    /// Creates a verdict.
    package init(verifier: AssetLinksVerifier, linked: Bool, reason: String) {
        self.verifier = verifier
        self.linked = linked
        self.reason = reason
    }

    /// `google: linked — reason`.
    package var description: String { "\(verifier.rawValue): \(linked ? "linked" : "not linked") — \(reason)" }
}
