import SWCredAssociation
import SWCredCore
import SWCredRetrieval

extension SourceOptions {
    /// The association source these options select (`--aasa-dir` wins, cli.md), for
    /// ``AssociationSources/with(_:device:_:)``; `nil` when none was given.
    ///
    /// - Parameters:
    ///   - cdnBaseURL: a stand-in for Apple's CDN (debug builds' hidden `--cdn-base-url`), whose
    ///     server the `--ca-file` roots vouch for, as an explicit `fetch` may be (AD-4.3).
    /// - Throws: `fileNotFound` / `limitExceeded` for the `--ca-file`, `usage` for a malformed
    ///   `--resolve`.
    func selection(cdnBaseURL: String? = nil) throws -> AssociationSourceSelection? {
        if let aasaDir { return AssociationSourceSelection(.directory(aasaDir)) }
        guard let kind = selectedKind else { return nil }
        // --ca-file roots count for developer entries only (AD-4.3), except for a CDN stand-in.
        let configuration = try RetrievalConfiguration(caFile: caFile, resolve: resolve, cdnBaseURL: cdnBaseURL)
        return AssociationSourceSelection(
            .live(kind), configuration: configuration, userRoots: cdnBaseURL == nil ? .developerEntries : .always)
    }

    /// ``selection(cdnBaseURL:)``, or a usage error when no source was given.
    func requiredSelection(cdnBaseURL: String? = nil) throws -> AssociationSourceSelection {
        guard let selection = try selection(cdnBaseURL: cdnBaseURL) else {
            throw SWCredError(.usage, "give an association source: --aasa-dir DIR, --direct or --cdn")
        }
        return selection
    }
}
