internal import FoundationEssentials
package import SWCredCore

/// Reads association files from an offline directory of web roots (`--aasa-dir DIR`).
///
/// The file for `host` is `DIR/<host>/.well-known/apple-app-site-association`; for the
/// `standard` route, a missing `.well-known` file falls back to the legacy
/// `DIR/<host>/apple-app-site-association` with a warning, as an origin fetch does on a 404
/// (AD-4.1, Decision). Folder names are lowercase ASCII (Punycode for IDN hosts), with `:port`
/// appended for a non-default port (`spec/cli.md`). The same folder can be served as web roots.
///
/// `fetch` is `nil` in results: there is no HTTP exchange. A missing file is reported as domain
/// `HTTP` code 404 and an over-long one as `NSURLErrorDomain` -1103, the failures a web server
/// would produce.
public struct DirectoryAssociationSource: AssociationFileSource {
    /// The directory holding one folder per host.
    public let root: String
    /// The largest file read (AD-4.6).
    public let maximumBytes: Int

    /// Creates a source over `root`.
    public init(root: String, maximumBytes: Int = 131_072) {
        self.root = root
        self.maximumBytes = maximumBytes
    }

    /// A source over `root` that must be a readable directory: what a user names with
    /// `--aasa-dir`. A typo is an error, never a verdict (every host "HTTP 404").
    /// - Throws: `fileNotFound` (exit 66) naming the path when it is missing, not a directory, or
    ///   cannot be listed.
    package static func opening(root: String, maximumBytes: Int = 131_072) throws(SWCredError) -> Self {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
            throw SWCredError(.fileNotFound, "no such directory: \(root) (the sites folder, --aasa-dir)")
        }
        guard isDirectory else {
            throw SWCredError(.fileNotFound, "not a directory: \(root) (the sites folder, --aasa-dir, holds HOST/.well-known/…)")
        }
        guard (try? FileManager.default.contentsOfDirectory(atPath: root)) != nil else {
            throw SWCredError(.fileNotFound, "cannot read the directory \(root) (--aasa-dir)")
        }
        return Self(root: root, maximumBytes: maximumBytes)
    }

    /// Always ``AssociationSourceKind/dir``.
    public var kind: AssociationSourceKind { .dir }

    /// The path of the `.well-known` file for `authority` (`host` or `host:port`).
    package func wellKnownPath(for authority: String) -> String {
        PathText.appending("\(authority)/.well-known/apple-app-site-association", to: root)
    }

    /// The legacy root-location path for `authority`.
    func legacyPath(for authority: String) -> String {
        PathText.appending("\(authority)/apple-app-site-association", to: root)
    }

    /// Reads the file for `request`. Never throws for a missing or bad file; reports it instead.
    public func retrieve(_ request: AssociationFileRequest) async throws -> RetrievedAssociationFile {
        try Task.checkCancellation()
        let authority = request.authority
        // A host that could escape the directory is never looked up.
        guard !authority.isEmpty, !authority.contains("/"), authority != ".", authority != ".." else {
            return RetrievedAssociationFile(
                source: .dir, body: nil,
                failure: AssociationFetchFailure(domain: "HTTP", code: 404, message: "no folder for '\(authority)'"))
        }
        let wellKnown = wellKnownPath(for: authority)
        switch read(wellKnown) {
        case .found(let bytes):
            return RetrievedAssociationFile(
                source: .dir, body: bytes,
                diagnostics: [.note("read \(wellKnown)")])
        case .failed(let failure):
            return RetrievedAssociationFile(source: .dir, body: nil, failure: failure)
        case .missing:
            break
        }
        guard request.route == .standard else {
            return RetrievedAssociationFile(
                source: .dir, body: nil,
                failure: AssociationFetchFailure(
                    domain: "HTTP", code: 404,
                    message: "no file at \(wellKnown) (mode entries use only .well-known)"))
        }
        let legacy = legacyPath(for: authority)
        switch read(legacy) {
        case .found(let bytes):
            return RetrievedAssociationFile(
                source: .dir, body: bytes,
                diagnostics: [
                    .warning(
                        "read the legacy location \(legacy); serve the file from "
                            + "/.well-known/apple-app-site-association instead (other paths are deprecated)")
                ])
        case .failed(let failure):
            return RetrievedAssociationFile(
                source: .dir, body: nil, failure: failure,
                diagnostics: [.warning("used the legacy location \(legacy)")])
        case .missing:
            return RetrievedAssociationFile(
                source: .dir, body: nil,
                failure: AssociationFetchFailure(
                    domain: "HTTP", code: 404,
                    message: "no file at \(wellKnown) or \(legacy)"))
        }
    }

    private enum ReadResult {
        case found([UInt8])
        case missing
        case failed(AssociationFetchFailure)
    }

    private func read(_ path: String) -> ReadResult {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory else {
            return .missing
        }
        guard let data = try? FileBytes.read(path: path, upTo: maximumBytes + 1) else {
            return .failed(AssociationFetchFailure(domain: "HTTP", code: 403, message: "cannot read \(path)"))
        }
        guard data.count <= maximumBytes else {
            return .failed(
                AssociationFetchFailure(
                    domain: "NSURLErrorDomain", code: -1103,
                    message: "Data exceeded maximum length of \(maximumBytes) bytes."))
        }
        return .found(data)
    }
}
