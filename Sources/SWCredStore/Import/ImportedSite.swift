import FoundationEssentials
import SWCredCore

/// The site of an imported row: the URL's host, port and scheme, canonicalised the way the store
/// keeps servers (lowercased ASCII host, one trailing dot removed, port 0 for the scheme's default).
///
/// Rules (decisions for `swcred import`, README "Importing and exporting"):
/// - `https://` gives protocol `htps`, `http://` gives `http`; a URL without a scheme
///   (`example.com/login`, as Bitwarden and 1Password keep them) is read as `https://`;
/// - any other scheme is not a web site: Chrome's `android://…@com.example.app/` rows, Firefox's
///   `chrome://FirefoxAccounts` rows, `ftp://`, `moz-extension://` and the like are **skipped**
///   (counted in `skipped`), not invalid, so that one app credential does not block a whole export;
/// - an http(s) URL without a host (empty, `https:///x`, `https://:443`) is **invalid** (cli.md),
///   and so is a host with characters outside `a-z 0-9 - . _` (non-ASCII names must be given as
///   A-labels, `xn--…`), an empty label, an IPv6 literal, or a port outside 1–65535;
/// - user info (`user@`) is dropped; the path, query and fragment are ignored.
package struct ImportedSite: Sendable, Hashable {
    /// The canonical host.
    package var host: String
    /// The port, 0 when the URL gives none or the scheme's default.
    package var port: UInt16
    /// `htps` or `http`.
    package var protocolCode: String

    /// What reading a URL gave.
    enum Outcome: Equatable {
        case site(ImportedSite)
        case notWeb(scheme: String)
        case invalid(String)
    }

    static func parse(_ text: String) -> Outcome {
        var rest = Substring(text)
        var scheme = "https"
        if let range = rest.utf8.firstRange(of: "://".utf8) {
            scheme = rest[..<range.lowerBound].lowercased()
            rest = rest[range.upperBound...]
        } else if let colon = rest.firstIndex(of: ":"), rest[..<colon].lowercased() == "android" {
            return .notWeb(scheme: "android")
        }
        let protocolCode: String
        let defaultPort: UInt16
        switch scheme {
        case "https":
            protocolCode = "htps"
            defaultPort = 443
        case "http":
            protocolCode = "http"
            defaultPort = 80
        default:
            guard !scheme.isEmpty,
                scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
            else { return .invalid("the URL's scheme is malformed") }
            return .notWeb(scheme: scheme)
        }
        // The authority ends at the first '/', '?' or '#'.
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var hostPort = authority
        if let at = authority.lastIndex(of: "@") { hostPort = authority[authority.index(after: at)...] }
        if hostPort.hasPrefix("[") { return .invalid("IPv6 literal hosts are not supported") }
        var hostPart = hostPort
        var port: UInt16 = 0
        // No '[' gets here, so the split cannot fail.
        if let split = try? HostPort.split(hostPort), let digits = split.port {
            hostPart = split.host
            if !digits.isEmpty {
                guard let value = Port(parsing: digits) else {
                    return .invalid("the URL's port must be a number from 1 to 65535")
                }
                port = value.value == defaultPort ? 0 : value.value
            }
        }
        guard !hostPart.isEmpty else { return .invalid("the URL has no host") }
        return site(host: hostPart, port: port, protocolCode: protocolCode, subject: "the URL's host")
    }

    /// A host given directly (JSON lines `server`), with the same rules as a URL's host.
    static func parseHost(_ text: String, port: UInt16, protocolCode: String) -> Outcome {
        site(host: Substring(text), port: port, protocolCode: protocolCode, subject: "the server")
    }

    /// The site with `text` as its URL-host ``HostName``, or why it is not one (`subject` names
    /// the host in the message).
    private static func site(host text: Substring, port: UInt16, protocolCode: String, subject: String) -> Outcome {
        do throws(HostName.ParseError) {
            let host = try HostName(text, syntax: .urlHost).text
            return .site(ImportedSite(host: host, port: port, protocolCode: protocolCode))
        } catch {
            return .invalid(error.message(subject: subject))
        }
    }

    /// The URL an export writes for this site: `https://host[:port]/` (or `http://`).
    package var url: String {
        let scheme = protocolCode == "http" ? "http" : "https"
        return port == 0 ? "\(scheme)://\(host)/" : "\(scheme)://\(host):\(port)/"
    }
}
