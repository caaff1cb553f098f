/// Where the lists named by include directives come from: the live fetcher under the retrieval
/// rules (DAL-F*, DAL-I2), a folder, or a test's table. The resolver asks for each include at
/// most once and never for more than its budget.
package protocol AssetLinksIncludeSource: Sendable {
    /// The body of the list at `url`, or why there is none.
    func statementList(at url: AssetLinksURL) async -> AssetLinksFetch
}

/// What fetching one statement list gave.
package enum AssetLinksFetch: Sendable, Hashable {
    /// The body, as served (200, no redirect).
    case body([UInt8])
    /// No body: Google's error code for the failure and a sentence for a person.
    case failed(AssetLinksErrorCode, String)
}

/// A source that has no lists: every include fails as not fetched (for a list read from a file).
package struct NoAssetLinksIncludes: AssetLinksIncludeSource {
    /// Creates the source.
    package init() {}

    package func statementList(at url: AssetLinksURL) async -> AssetLinksFetch {
        .failed(.fetchError, "includes are not fetched here")
    }
}
