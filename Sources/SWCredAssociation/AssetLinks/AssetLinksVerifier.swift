/// Who answers "does this site grant that relation to that app": the verifiers whose answers
/// differ and which swcred reports side by side (asset-links.md §1, DAL-Q1).
package enum AssetLinksVerifier: String, Sendable, Hashable, CaseIterable, Codable {
    /// Google's Digital Asset Links API (`assetlinks:check`) as its compatibility suite encodes
    /// it: invalid elements skipped, includes followed to any depth within a fetch budget, a lone
    /// trailing `/` on a site refused, fingerprints validated.
    case google
    /// The AOSP device verifier (Android 12+ `StatementRetriever.kt`, `StatementParser.kt`): one
    /// include level, `https` only, a malformed element failing the whole list (DERIVED from
    /// code), a lone trailing `/` accepted, fingerprints compared as strings.
    case android
}
