/// The `errorCode` values of Google's Digital Asset Links API that a statement list or its
/// includes can raise (asset-links.md §1.3); swcred gives every problem one, so that a problem
/// compares with Google's compatibility suite. An error does not mean "not linked": statements
/// read before or beside it still count.
package enum AssetLinksErrorCode: String, Sendable, Hashable, CaseIterable, Codable {
    /// A list could not be fetched (not 200, network failure).
    case fetchError = "ERROR_CODE_FETCH_ERROR"
    /// A redirect was met (DAL-F1).
    case redirect = "ERROR_CODE_REDIRECT"
    /// The body was too large (DAL-F3).
    case tooLarge = "ERROR_CODE_TOO_LARGE"
    /// Not `application/json` (DAL-F2).
    case wrongContentType = "ERROR_CODE_WRONG_CONTENT_TYPE"
    /// Not JSON, not an array, no statements, or an invalid element or include URL.
    case malformedContent = "ERROR_CODE_MALFORMED_CONTENT"
    /// An `http` include in the fetch stack of a secure asset (DAL-I1).
    case secureAssetIncludesInsecure = "ERROR_CODE_SECURE_ASSET_INCLUDES_INSECURE"
    /// The include budget ran out, or an include loop was cut (DAL-I4).
    case fetchBudgetExhausted = "ERROR_CODE_FETCH_BUDGET_EXHAUSTED"
}
