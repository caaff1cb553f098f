package import SWCredCore

extension AssetLinksSite {
    /// The `https` site of a host named on the command line (`verify --host HOST`): `host` or
    /// `host:port`, nothing else (no scheme, path, user or query).
    ///
    /// - Throws: `usage` (exit 64) naming what is wrong.
    package static func https(host text: String) throws(SWCredError) -> AssetLinksSite {
        guard !text.isEmpty, text.utf8.count <= 1_024 else {
            throw SWCredError(.usage, "--host takes a host name (HOST or HOST:PORT) of at most 1024 bytes")
        }
        guard !text.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "@") || $0 <= 0x20 }) else {
            throw SWCredError(.usage, "--host '\(text)' is not a host name (HOST or HOST:PORT, no scheme or path)")
        }
        switch parse("https://" + text) {
        case .success(let parsed): return parsed.site
        case .failure(let problem):
            throw SWCredError(.usage, "--host '\(text)' is not a host name: \(problem)")
        }
    }

    /// `host` or `host:port`: the `--aasa-dir` folder name and the `host` of an Android row.
    package var authority: String { host + (port.map { ":\($0)" } ?? "") }
}
