import SWCredCore
import Synchronization

/// An association-file fetcher that talks to real servers: the HTTPS fetcher of
/// `SWCredRetrievalLive` (`LiveAssociationFileFetcher`), seen from code that does not link the
/// network stack.
public protocol LiveFileFetcher: AssociationFileFetcher {
    /// Fetches one URL under the retrieval rules (`swcred fetch http://…` is refused here, AD-4.2).
    func fetch(url: String, route: RetrievalRoute, allowUserInstalledRoots: Bool) async -> AASAFetchResult
    /// Shuts the HTTP client down; later calls do nothing.
    func shutdown() async throws
}

/// Where live fetchers come from. This module holds no network code: a program that fetches links
/// `SWCredRetrievalLive` and calls its `LiveRetrieval.installHTTPS()` once at start, so that
/// programs that never fetch (the `swcred` executable) do not link or start SwiftNIO, BoringSSL,
/// async-http-client and swift-certificates.
public enum LiveRetrieval {
    /// Makes a live fetcher for a configuration.
    public typealias Factory = @Sendable (RetrievalConfiguration) throws -> any LiveFileFetcher

    private static let factory = Mutex<Factory?>(nil)

    /// Makes `make` the factory of every later live fetcher.
    public static func install(_ make: @escaping Factory) {
        factory.withLock { $0 = make }
    }

    /// Whether a factory is installed: whether this program can fetch over HTTPS.
    public static var isInstalled: Bool { factory.withLock { $0 != nil } }

    /// A new live fetcher.
    ///
    /// - Throws: `internalError` when this program has no network code, or the factory's set-up
    ///   errors (`malformedInput` for unusable roots).
    public static func makeFetcher(configuration: RetrievalConfiguration) throws -> any LiveFileFetcher {
        guard let make = factory.withLock({ $0 }) else {
            throw SWCredError(
                .internalError,
                "this program has no HTTPS retrieval linked (SWCredRetrievalLive): the network commands run in swcred-fetch"
            )
        }
        return try make(configuration)
    }

    /// Runs `body` with a new live fetcher, then shuts it down, whether `body` returns or throws.
    public static func withFetcher<R: Sendable>(
        configuration: RetrievalConfiguration = RetrievalConfiguration(),
        _ body: (any LiveFileFetcher) async throws -> R
    ) async throws -> R {
        let fetcher = try makeFetcher(configuration: configuration)
        let result: Result<R, any Error>
        do {
            result = .success(try await body(fetcher))
        } catch {
            result = .failure(error)
        }
        switch result {
        case .success: try await fetcher.shutdown()
        case .failure: try? await fetcher.shutdown()
        }
        return try result.get()
    }
}
