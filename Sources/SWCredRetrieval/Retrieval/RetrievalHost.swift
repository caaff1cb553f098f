import SWCredCore

/// A host (and optional port) whose association file is fetched, checked before any URL is built.
///
/// Host names are ASCII only (IDN hosts arrive as A-labels), lowercased once, with one trailing
/// dot removed; they contain only letters, digits, `-` and `.`, at most 253 characters, so that
/// nothing in them can change the URL's path or authority.
public struct RetrievalHost: Sendable, Hashable, CustomStringConvertible {
    /// The lowercased host name.
    public let host: String
    /// A non-default port, or nil for 443.
    public let port: Int?

    /// Creates a host from parts that are already valid.
    ///
    /// - Throws: `SWCredError.invalidParameter` when `host` is not a plain ASCII host name or the
    ///   port is out of range.
    public init(host: String, port: Int? = nil) throws {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty, name.utf8.count <= 253,
            name.unicodeScalars.allSatisfy({
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "."
            }),
            !name.hasPrefix("."), !name.contains("..")
        else {
            throw SWCredError(
                .invalidParameter,
                "'\(host.prefix(100))' is not a host name (ASCII letters, digits, '-' and '.'; IDN hosts as punycode)"
            )
        }
        if let port, !(1...65535).contains(port) {
            throw SWCredError(.invalidParameter, "port \(port) is out of range 1–65535")
        }
        self.host = name
        self.port = port == 443 ? nil : port
    }

    /// Parses `host` or `host:port`.
    ///
    /// - Throws: `SWCredError.invalidParameter` for anything else.
    public init(parsing text: String) throws {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            try self.init(host: text)
        case 2:
            guard let port = Int(parts[1]) else {
                throw SWCredError(.invalidParameter, "'\(text.prefix(100))' has a port that is not a number")
            }
            try self.init(host: String(parts[0]), port: port)
        default:
            throw SWCredError(.invalidParameter, "'\(text.prefix(100))' is not host or host:port")
        }
    }

    /// `host` or `host:port` as it appears in URLs and CDN paths.
    public var authority: String { port.map { "\(host):\($0)" } ?? host }

    /// The port connections go to.
    public var effectivePort: Int { port ?? 443 }

    public var description: String { authority }
}
