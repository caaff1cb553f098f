public import SWCredAssociation
public import SWCredCore

/// Which association-file source a run uses, as a value: the offline folder, or a live route with
/// its retrieval configuration (extra roots, `HOST:PORT:ADDR` overrides, timeouts, CDN base).
///
/// ``AssociationSources/with(_:device:_:)`` turns a selection into a source and shuts its HTTP
/// client down on every path: the one factory of `verify`, `match`, `associations`, `request`,
/// `add` and `passkey`.
public struct AssociationSourceSelection: Sendable {
    /// Where files come from.
    public enum Origin: Sendable, Hashable {
        /// `DIR/<host>/.well-known/apple-app-site-association` (``DirectoryAssociationSource``).
        case directory(String)
        /// Live over HTTPS: `.direct` (the sites) or `.cdn` (Apple's CDN route).
        case live(AssociationSourceKind)
    }

    /// Where files come from.
    public var origin: Origin
    /// The live fetcher's configuration (ignored for a directory).
    public var configuration: RetrievalConfiguration
    /// When user-installed roots may vouch for a server (ignored for a directory).
    public var userRoots: LiveAssociationSource.UserRootPolicy

    /// Creates a selection.
    public init(
        _ origin: Origin,
        configuration: RetrievalConfiguration = RetrievalConfiguration(),
        userRoots: LiveAssociationSource.UserRootPolicy = .developerEntries
    ) {
        self.origin = origin
        self.configuration = configuration
        self.userRoots = userRoots
    }

    /// The kind of source this selection makes.
    public var kind: AssociationSourceKind {
        switch origin {
        case .directory: .dir
        case .live(let kind): kind
        }
    }
}

/// The factory of association-file sources (see ``AssociationSourceSelection``).
public enum AssociationSources {
    /// Runs `body` with the selected source, then shuts the source's HTTP client down (when it has
    /// one), whether `body` returns or throws.
    ///
    /// - Throws: `invalidParameter` for a live selection of kind `.dir`, `internalError` for a live
    ///   selection in a program without HTTPS retrieval (``LiveRetrieval``), the fetcher's set-up
    ///   errors (`malformedInput` for unusable roots), or what `body` throws.
    public static func with<R: Sendable>(
        _ selection: AssociationSourceSelection,
        device: DeviceSettings,
        _ body: (any AssociationFileSource) async throws -> R
    ) async throws -> R {
        switch selection.origin {
        case .directory(let root):
            return try await body(try DirectoryAssociationSource.opening(root: root))
        case .live(let kind):
            let fetcher = try LiveRetrieval.makeFetcher(configuration: selection.configuration)
            let result: Result<R, any Error>
            do {
                let source = try LiveAssociationSource(
                    kind: kind, fetcher: fetcher, device: device, userRoots: selection.userRoots)
                result = .success(try await body(source))
            } catch {
                result = .failure(error)
            }
            try? await fetcher.shutdown()
            return try result.get()
        }
    }
}
