extension AssetLinksResolver {
    /// Every verifier's verdict on whether `site` grants `relation` to `app` (DAL-Q1), google
    /// first: the one call `verify --android-app` makes per host and relation once the root list
    /// is fetched (`root`) and includes can be (`includes`).
    ///
    /// ```swift
    /// let verdicts = await AssetLinksResolver.verdicts(
    ///     .body(bytes), site: site, relation: .handleAllURLs, app: app, includes: NoAssetLinksIncludes())
    /// verdicts.map(\.description)  // ["google: linked — …", "android: not linked — …"]
    /// ```
    package static func verdicts(
        _ root: AssetLinksFetch, site: AssetLinksSite, relation: AssetLinksRelation, app: AndroidAppIdentity,
        includes: some AssetLinksIncludeSource
    ) async -> [AssetLinksVerdict] {
        var verdicts: [AssetLinksVerdict] = []
        for verifier in AssetLinksVerifier.allCases {
            let resolution = await AssetLinksResolver(verifier: verifier).resolve(
                root, source: .web(site), includes: includes)
            verdicts.append(resolution.check(relation, app: app))
        }
        return verdicts
    }
}
