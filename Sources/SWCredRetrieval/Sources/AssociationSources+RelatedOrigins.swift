import SWCredAssociation
import SWCredCore

extension AssociationSources {
    /// An RP ID's `/.well-known/webauthn` as a selection gives it (`passkey … --origin`): with
    /// `--aasa-dir DIR`, `DIR/<rpId>/.well-known/webauthn`; live (`--direct`), fetched from
    /// `https://<rpId>/.well-known/webauthn` under ``RelatedOriginsRetrievalRules``.
    ///
    /// Never throws: every failure (no source, a missing file, a retrieval rule, a network error)
    /// is the reading's `failure`, which the ceremony turns into a SecurityError (ROR-F1).
    ///
    /// - Returns: where the file came from and what was read.
    package static func relatedOrigins(
        rpID: String, selection: AssociationSourceSelection?
    ) async -> (location: String, reading: RelatedOriginsRetrievalRules.Reading) {
        let rules = RelatedOriginsRetrievalRules()
        let url = RelatedOriginsRetrievalRules.url(rpID: rpID)
        guard let selection else {
            return (
                url,
                .init(
                    body: nil, failure: "no source was given for \(url): add --aasa-dir DIR or --direct",
                    redirects: [])
            )
        }
        switch selection.origin {
        case .directory(let root):
            let path = RelatedOriginsRetrievalRules.path(root: root, rpID: rpID)
            do {
                let body = try FileBytes.read(path: path, upTo: rules.maximumBytes + 1)
                guard body.count <= rules.maximumBytes else {
                    return (
                        path,
                        .init(
                            body: nil, failure: "\(path) is larger than \(rules.maximumBytes) bytes (ROR-F3)",
                            redirects: [])
                    )
                }
                return (path, .init(body: body, failure: nil, redirects: []))
            } catch {
                return (path, .init(body: nil, failure: "cannot read \(path): \(error)", redirects: []))
            }
        case .live(.cdn):
            return (url, .init(body: nil, failure: "there is no CDN route for \(url): use --direct", redirects: []))
        case .live:
            do {
                let configuration = rules.configuration(selection.configuration)
                let result = try await LiveRetrieval.withFetcher(configuration: configuration) { fetcher in
                    await fetcher.fetch(url: url, route: .wellKnownOnly, allowUserInstalledRoots: true)
                }
                return (url, rules.reading(result))
            } catch {
                return (url, .init(body: nil, failure: "\(url): \(LiveRetrieval.text(of: error))", redirects: []))
            }
        }
    }
}
