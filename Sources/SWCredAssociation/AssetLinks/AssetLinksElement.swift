/// One element of a statement list and how each verifier reads it (asset-links.md §1.1).
///
/// The verifiers part on elements: Google's API skips an invalid element and reports it;
/// an AOSP Android 12+ verifier skips an element only when `relation` or `target` is missing,
/// throws on any other malformed element and so fails the whole list (DAL-S7, DERIVED from code),
/// and reads some elements Google refuses (a lone trailing `/` on a site, a fingerprint that is
/// not upper-case colon hex, which then never matches).
package struct AssetLinksElement: Sendable, Hashable {
    /// What a verifier makes of the element.
    package enum Reading: Sendable, Hashable {
        /// A statement that counts.
        case statement(AssetLinksStatement)
        /// An include directive naming this URL, as written.
        case include(String)
        /// Ignored without an error (AOSP: `relation` or `target` missing).
        case skipped(AssetLinksProblem)
        /// Invalid: Google skips it and reports the problem; an AOSP verifier fails the list.
        case malformed(AssetLinksProblem)
    }

    /// The element's index in the list.
    package let index: Int
    /// Google's API's reading.
    package let google: Reading
    /// The AOSP verifier's reading.
    package let android: Reading

    /// Creates an element read the same by both verifiers.
    package init(index: Int, both reading: Reading) {
        self.index = index
        self.google = reading
        self.android = reading
    }

    /// Creates an element the verifiers read differently.
    package init(index: Int, google: Reading, android: Reading) {
        self.index = index
        self.google = google
        self.android = android
    }

    /// The reading of `verifier`.
    package func reading(_ verifier: AssetLinksVerifier) -> Reading {
        switch verifier {
        case .google: google
        case .android: android
        }
    }
}
