import SWCredCore
import Synchronization

/// An association-file fetcher that talks to real servers: the HTTPS fetcher of
/// `SWCredRetrievalLive` (`LiveAssociationFileFetcher`), seen from code that does not link the
/// network stack.
package protocol LiveFileFetcher: AssociationFileFetcher {
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
    package typealias Factory = @Sendable (RetrievalConfiguration) throws -> any LiveFileFetcher

    private static let factory = Mutex<Factory?>(nil)

    /// Makes `make` the factory of every later live fetcher.
    package static func install(_ make: @escaping Factory) {
        factory.withLock { $0 = make }
    }

    /// Whether a factory is installed: whether this program can fetch over HTTPS.
    public static var isInstalled: Bool { factory.withLock { $0 != nil } }

    /// A new live fetcher.
    ///
    /// - Throws: `internalError` when this program has no network code, or the factory's set-up
    ///   errors (`malformedInput` for unusable roots).
    package static func makeFetcher(configuration: RetrievalConfiguration) throws -> any LiveFileFetcher {
        guard let make = factory.withLock({ $0 }) else {
            throw SWCredError(
                .internalError,
                "this program has no HTTPS retrieval linked (SWCredRetrievalLive): the network commands run in swcred-fetch"
            )
        }
        return try make(configuration)
    }

    private static let errorText = Mutex<(@Sendable (any Error) -> String)?>(nil)

    /// Makes `text` the wording of ``text(of:)``: `installHTTPS()` installs Foundation's
    /// `localizedDescription`, which this module (linked into `swcred`, which links only
    /// `FoundationEssentials`) cannot call.
    package static func installErrorText(_ text: @escaping @Sendable (any Error) -> String) {
        errorText.withLock { $0 = text }
    }

    /// A system error's text as the fetching commands have always printed it (Foundation's
    /// `localizedDescription` in a program that fetches), or its description elsewhere.
    package static func text(of error: any Error) -> String {
        guard let text = errorText.withLock({ $0 }) else { return String(describing: error) }
        return text(error)
    }

    /// Runs `body` with a new live fetcher, then shuts it down, whether `body` returns or throws.
    package static func withFetcher<R: Sendable>(
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
