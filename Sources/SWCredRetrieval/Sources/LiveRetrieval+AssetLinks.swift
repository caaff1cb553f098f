extension LiveRetrieval {
    /// `swcred fetch HOST --assetlinks`: `https://<host>/.well-known/assetlinks.json` under
    /// ``AssetLinksRetrievalRules`` (no redirect followed, 1 MiB), user-installed roots allowed as
    /// for any explicit fetch, and the report completed by ``AssetLinksRetrievalRules/report(_:)``.
    /// Includes are not followed (`verify --android-app` follows them).
    ///
    /// - Throws: what making the fetcher throws (no HTTPS retrieval installed, a bad configuration).
    package static func fetchAssetLinks(
        _ target: FetchTarget, configuration: RetrievalConfiguration
    ) async throws -> AASAFetchResult {
        let rules = AssetLinksRetrievalRules()
        return try await withFetcher(configuration: rules.configuration(configuration)) { fetcher in
            switch target {
            case .insecure(let url):
                return await fetcher.fetch(url: url, route: .wellKnownOnly, allowUserInstalledRoots: true)
            case .host(let site):
                let url = "https://\(site.authority)/.well-known/assetlinks.json"
                return rules.report(await fetcher.fetch(url: url, route: .wellKnownOnly, allowUserInstalledRoots: true))
            }
        }
    }
}
