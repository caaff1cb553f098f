import Foundation
public import SWCredRetrieval

extension LiveAssociationFileFetcher: LiveFileFetcher {
    /// ``fetch(url:route:allowUserInstalledRoots:headers:)`` without extra headers.
    package func fetch(url: String, route: RetrievalRoute, allowUserInstalledRoots: Bool) async -> AASAFetchResult {
        await fetch(url: url, route: route, allowUserInstalledRoots: allowUserInstalledRoots, headers: [])
    }
}

extension LiveRetrieval {
    /// Makes ``LiveAssociationFileFetcher`` the factory of live fetchers in this program: what a
    /// program that fetches over HTTPS (`swcred-fetch`, the test processes) calls once at start.
    public static func installHTTPS() {
        install { try LiveAssociationFileFetcher(configuration: $0) }
        installErrorText { $0.localizedDescription }
    }
}
