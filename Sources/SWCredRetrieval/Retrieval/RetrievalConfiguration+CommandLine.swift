import FoundationEssentials
import SWCredCore

extension RetrievalConfiguration {
    /// The largest `--ca-file` read: 1 MiB of PEM is far more than any root bundle needs.
    static let maximumCAFileBytes = 1 << 20

    /// A configuration from command-line values: `--ca-file`, `--resolve` (repeatable) and timeouts
    /// in seconds.
    ///
    /// - Parameters:
    ///   - caFile: a PEM file of extra roots (user-installed, AD-4.3), or nil.
    ///   - resolve: `HOST:PORT:ADDR` values.
    ///   - totalTimeout: seconds for the whole exchange (default 60, AD-4.8).
    ///   - connectTimeout: seconds to connect (default 10).
    ///   - readTimeout: seconds of silence allowed (default 30).
    ///   - cdnBaseURL: another CDN base (https only), for local tests.
    /// - Throws: `fileNotFound` (66) for an unreadable CA file, `limitExceeded` for one over 1 MiB,
    ///   `usage` (64) for a malformed `--resolve` or a timeout that is not a positive number.
    package init(
        caFile: String?,
        resolve: [String],
        totalTimeout: Double? = nil,
        connectTimeout: Double? = nil,
        readTimeout: Double? = nil,
        cdnBaseURL: String? = nil
    ) throws {
        self.init()
        if let caFile {
            let data: [UInt8]
            do {
                data = try FileBytes.read(path: caFile, upTo: Self.maximumCAFileBytes + 1)
            } catch {
                throw SWCredError(.fileNotFound, "cannot read the CA file \(caFile)")
            }
            guard data.count <= Self.maximumCAFileBytes else {
                throw SWCredError(.limitExceeded, "the CA file \(caFile) is larger than 1 MiB")
            }
            userInstalledRootsPEM = [String(decoding: data, as: UTF8.self)]
        }
        resolveOverrides = try resolve.map(ResolveOverride.init(parsing:))
        func duration(_ seconds: Double?, _ name: String) throws -> Duration? {
            guard let seconds else { return nil }
            guard seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                throw SWCredError(.usage, "\(name) wants a number of seconds between 0 and 86400")
            }
            return .milliseconds(Int64((seconds * 1000).rounded(.up)))
        }
        if let value = try duration(totalTimeout, "--timeout") { self.totalTimeout = value }
        if let value = try duration(connectTimeout, "--connect-timeout") { self.connectTimeout = value }
        if let value = try duration(readTimeout, "--read-timeout") { self.readTimeout = value }
        if let cdnBaseURL { self.cdnBaseURL = cdnBaseURL }
    }
}
