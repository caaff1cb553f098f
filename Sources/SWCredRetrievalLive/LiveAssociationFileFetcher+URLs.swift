import Foundation
import SWCredCore
import SWCredRetrieval

// URL helpers of the request flow: redirect targets and the `--resolve` check.
extension LiveAssociationFileFetcher {
    /// `location` made absolute against `base` (RFC 3986 reference resolution), or nil.
    static func resolve(location: String, against base: String) -> String? {
        guard location.utf8.count <= 2048, let baseURL = URL(string: base),
            let resolved = URL(string: location, relativeTo: baseURL)?.absoluteURL
        else { return nil }
        return resolved.absoluteString
    }

    /// A `--resolve` entry for the host but for another port would send the connection to the
    /// wrong place; refuse rather than guess.
    func resolveMismatch(for request: AASAFetchRequest) -> RetrievalFailure? {
        let host = request.route == .cdn ? Self.host(ofURL: configuration.cdnBaseURL) : request.host.host
        let port = request.route == .cdn ? Self.port(ofURL: configuration.cdnBaseURL) : request.host.effectivePort
        let entries = configuration.resolveOverrides.filter { $0.host == host }
        guard !entries.isEmpty, !entries.contains(where: { $0.port == port }) else { return nil }
        return RetrievalFailure(
            rule: .ad4_8,
            domain: RetrievalFailure.urlErrorDomain,
            code: -1004,
            message:
                "--resolve names \(host) on port \(entries.map { String($0.port) }.joined(separator: ", ")) but the fetch goes to port \(port)",
            isNetworkFailure: true
        )
    }

    static func host(ofURL url: String) -> String {
        let afterScheme = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        guard afterScheme.count >= 3 else { return "" }
        return HostName.lowercasedASCII(afterScheme[2].split(separator: ":").first ?? "")
    }

    static func port(ofURL url: String) -> Int {
        let afterScheme = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        guard afterScheme.count >= 3 else { return 443 }
        let parts = afterScheme[2].split(separator: ":")
        return parts.count == 2 ? Int(parts[1]) ?? 443 : 443
    }
}
