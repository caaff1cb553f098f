package import SWCredAssociation
import SWCredCore
import Synchronization

/// `assetlinks.json` files and their includes fetched live over HTTPS under
/// ``AssetLinksRetrievalRules`` (DAL-F1…F3), for `verify --android-app --direct`.
///
/// Each URL is fetched once per source, however many verifiers, apps and relations ask for it
/// (the task is shared, so concurrent askers wait for the one fetch). Roots from `--ca-file`
/// vouch for a server here, as for an explicit `swcred fetch`: Android has no developer mode to
/// gate them.
package final class LiveAssetLinksSource: AssetLinksListSource {
    private let fetcher: any LiveFileFetcher
    /// The rules applied.
    package let rules: AssetLinksRetrievalRules
    private let fetches = Mutex<[String: Task<AASAFetchResult, Never>]>([:])

    /// Creates a source over a fetcher made with `rules.configuration(_:)`.
    package init(fetcher: any LiveFileFetcher, rules: AssetLinksRetrievalRules = .init()) {
        self.fetcher = fetcher
        self.rules = rules
    }

    /// Always ``AssociationSourceKind/direct``: there is no CDN for asset links.
    package var kind: AssociationSourceKind { .direct }

    /// The device's reading of the site's list.
    package func statementList(for site: AssetLinksSite) async -> AssetLinksFetch {
        await statementList(for: site, verifier: .android)
    }

    /// `verifier`'s reading of the site's list (only Google's API refuses a wrong content type).
    package func statementList(for site: AssetLinksSite, verifier: AssetLinksVerifier) async -> AssetLinksFetch {
        rules.reading(await result(site.statementListURL), verifier: verifier)
    }

    /// An include, as a device reads it.
    package func statementList(at url: AssetLinksURL) async -> AssetLinksFetch {
        rules.reading(await result(url.description), verifier: .android)
    }

    private func result(_ url: String) async -> AASAFetchResult {
        let fetcher = self.fetcher
        let task = fetches.withLock { tasks in
            if let running = tasks[url] { return running }
            let started = Task {
                await fetcher.fetch(url: url, route: .wellKnownOnly, allowUserInstalledRoots: true)
            }
            tasks[url] = started
            return started
        }
        return await task.value
    }
}
