package import SWCredAssociation

extension LiveRetrieval {
    /// One explicit retrieval (`swcred fetch`): `target`'s file on `route`, user-installed roots
    /// allowed, as an explicit fetch may use them (AD-4.3). An `http://` URL is refused before
    /// anything touches the network (AD-4.2); a site's file is parsed when the transport rules
    /// passed (the parse's verdict is in the report).
    /// - Returns: the result (report and body) and the parsed file, when there is one.
    /// - Throws: what making the fetcher throws (no HTTPS retrieval installed, a bad configuration).
    package static func fetch(
        _ target: FetchTarget, route: RetrievalRoute, configuration: RetrievalConfiguration
    ) async throws -> (result: AASAFetchResult, file: AssociationFile?) {
        try await withFetcher(configuration: configuration) { fetcher in
            switch target {
            case .insecure(let url):
                return (await fetcher.fetch(url: url, route: route, allowUserInstalledRoots: true), nil)
            case .host(let site):
                let request = AASAFetchRequest(host: site, route: route, allowUserInstalledRoots: true)
                var result = await fetcher.fetch(request)
                let file = result.parse()
                return (result, file)
            }
        }
    }
}
