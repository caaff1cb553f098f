package import SWCredAssociation
import SWCredCore

extension AssociationSources {
    /// Runs `body` with the source of `assetlinks.json` files a selection makes (`verify
    /// --android-app`), or with `nil` when `selection` is `nil`, then shuts its HTTP client down.
    ///
    /// With `--aasa-dir DIR`, `DIR/<host>/.well-known/assetlinks.json` and its includes under
    /// `DIR` (``AssetLinksDirectorySource``); live (`--direct` or `--cdn`: there is no CDN for
    /// asset links), each site's `https://<host>/.well-known/assetlinks.json` under
    /// ``AssetLinksRetrievalRules`` (``LiveAssetLinksSource``).
    ///
    /// - Throws: `fileNotFound` (66) for a folder that is not a readable directory; what making
    ///   the live fetcher throws; what `body` throws.
    package static func withAssetLinks<R: Sendable>(
        _ selection: AssociationSourceSelection?,
        _ body: ((any AssetLinksListSource)?) async throws -> R
    ) async throws -> R {
        guard let selection else { return try await body(nil) }
        switch selection.origin {
        case .directory(let root):
            _ = try DirectoryAssociationSource.opening(root: root)
            return try await body(AssetLinksDirectorySource(root: root))
        case .live:
            let rules = AssetLinksRetrievalRules()
            return try await LiveRetrieval.withFetcher(configuration: rules.configuration(selection.configuration)) {
                fetcher in
                try await body(LiveAssetLinksSource(fetcher: fetcher, rules: rules))
            }
        }
    }
}
