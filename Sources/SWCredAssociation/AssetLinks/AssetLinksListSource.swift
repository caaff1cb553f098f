/// Where a site's own statement list and the lists its includes name come from, for a whole
/// verification (`verify --android-app`): the offline folder (``AssetLinksDirectorySource``) or
/// the live HTTPS retrieval under DAL-F* (`SWCredRetrieval`).
package protocol AssetLinksListSource: AssetLinksIncludeSource {
    /// The kind of source, as the `source` field of an Android row reports it.
    var kind: AssociationSourceKind { get }
    /// The list `site` serves at `/.well-known/assetlinks.json`, or why there is none.
    func statementList(for site: AssetLinksSite) async -> AssetLinksFetch
    /// The list `site` serves as `verifier` reads it: a live source answers Google's API with
    /// `ERROR_CODE_WRONG_CONTENT_TYPE` where a device reads the body (DAL-F2).
    func statementList(for site: AssetLinksSite, verifier: AssetLinksVerifier) async -> AssetLinksFetch
}

extension AssetLinksListSource {
    /// ``statementList(for:)``: every verifier reads the same (a folder has no content type).
    package func statementList(for site: AssetLinksSite, verifier: AssetLinksVerifier) async -> AssetLinksFetch {
        await statementList(for: site)
    }
}

extension AssetLinksDirectorySource: AssetLinksListSource {
    /// Always ``AssociationSourceKind/dir``.
    package var kind: AssociationSourceKind { .dir }
}
