internal import FoundationEssentials
internal import SWCredCore

/// Reads statement lists from an offline directory of web roots (`--aasa-dir DIR`, cli.md):
/// a site's list is `DIR/<host>/.well-known/assetlinks.json`, an include
/// `https://<host>/<path>` is `DIR/<host>/<path>`. Folder names are as for AASA files:
/// lower-case ASCII, `:port` appended for a non-default port; the scheme does not matter.
///
/// A missing file answers as a 404 would (`ERROR_CODE_FETCH_ERROR`), one over ``maximumBytes``
/// as `ERROR_CODE_TOO_LARGE` (DAL-F3); a path with a `.` or `..` segment is never looked up.
///
/// A redirect is written beside the path as `<file>.redirect` (`assetlinks.json.redirect`): its
/// first line is `STATUS LOCATION` (`301 https://tacos.example/.well-known/assetlinks.json`), and
/// the path answers as a live server's redirect does, `ERROR_CODE_REDIRECT`, never followed (DAL-F1).
package struct AssetLinksDirectorySource: AssetLinksIncludeSource {
    /// The directory holding one folder per host.
    package let root: String
    /// The largest file read: 1 MiB, a device's limit (DAL-F3).
    package let maximumBytes: Int

    /// Creates a source over `root`.
    package init(root: String, maximumBytes: Int = 1 << 20) {
        self.root = root
        self.maximumBytes = maximumBytes
    }

    /// The list `site` serves at `/.well-known/assetlinks.json`.
    package func statementList(for site: AssetLinksSite) -> AssetLinksFetch {
        read(authority: Self.authority(host: site.host, port: site.port), path: "/.well-known/assetlinks.json")
    }

    /// The list an include names.
    package func statementList(at url: AssetLinksURL) async -> AssetLinksFetch {
        read(authority: Self.authority(host: url.host, port: url.port), path: url.path)
    }

    private static func authority(host: String, port: Int?) -> String { host + (port.map { ":\($0)" } ?? "") }

    private func read(authority: String, path: String) -> AssetLinksFetch {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !segments.isEmpty, !segments.contains(where: { $0 == "." || $0 == ".." }) else {
            return .failed(.fetchError, "404 Not Found: no file for '\(authority)\(path)' in \(root)")
        }
        let file = PathText.appending(([authority] + segments.map(String.init)).joined(separator: "/"), to: root)
        if let redirect = Self.redirect(at: file + ".redirect") {
            return .failed(
                .redirect,
                "HTTP redirects are not allowed (DAL-F1): https://\(authority)\(path) answered \(redirect.status) to "
                    + "\(redirect.location) (\(file).redirect)")
        }
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory else {
            return .failed(.fetchError, "404 Not Found: no file at \(file)")
        }
        guard let bytes = try? FileBytes.read(path: file, upTo: maximumBytes + 1) else {
            return .failed(.fetchError, "cannot read \(file)")
        }
        guard bytes.count <= maximumBytes else {
            return .failed(.tooLarge, "\(file) is larger than \(maximumBytes) bytes (DAL-F3)")
        }
        return .body(bytes)
    }

    /// The `STATUS LOCATION` of a `.redirect` file (at most 4 KiB; a 3xx status), or `nil`.
    static func redirect(at path: String) -> (status: Int, location: String)? {
        guard FileManager.default.fileExists(atPath: path),
            let bytes = try? FileBytes.read(path: path, upTo: 4_096)
        else { return nil }
        let line = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).first ?? ""
        let parts = line.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, let status = Int(parts[0]), (300...399).contains(status) else { return nil }
        return (status, String(parts[1]).trimmingWhitespace())
    }
}
