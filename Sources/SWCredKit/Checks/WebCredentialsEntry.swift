import SWCredCore

/// One `webcredentials:` element of the associated-domains entitlement (AD-2.2, AD-2.3).
///
/// Only what the Shared Web Credentials checks need: the lowercased host, the port, the wildcard
/// flag and the alternate modes. Elements of other services, and malformed elements, do not
/// parse (`init(parsing:)` returns `nil`); the full entitlement report is `swcred entitlements`.
package struct WebCredentialsEntry: Sendable, Hashable, CustomStringConvertible {
    /// Alternate modes (`?mode=developer+managed`, AD-2.2 step 5).
    package enum Mode: String, Sendable, Hashable, CaseIterable {
        case developer
        case managed
    }

    /// The element as written in the entitlement.
    package let raw: String
    /// The host, lowercased, without the `*.` of a wildcard.
    package let host: String
    /// The port, when the element names one (1–65535).
    package let port: Int?
    /// `*.host`: covers the strict subdomains of ``host`` and not ``host`` itself (AD-8.2).
    package let wildcard: Bool
    /// The alternate modes of the element; empty for a plain element.
    package let modes: Set<Mode>

    package var description: String { raw }

    /// Parses an entitlement element; `nil` unless it is a well-formed `webcredentials` element.
    ///
    /// Steps of AD-2.2: split at the first `:`; compare the service case-insensitively; read the
    /// rest as the authority and query of `https://<rest>`; `*.` sets the wildcard flag; the `mode`
    /// query item is split on `+`. Validity (AD-2.3): an entitlement ``HostName`` (ASCII letters,
    /// digits, `-` and `.`, no empty label, labels of at most 63 bytes); at least one dot (except
    /// `localhost` and IP literals in `developer` elements); no path, fragment or user info; a
    /// ``Port``.
    package init?(parsing raw: String) {
        // 1. Service.
        guard raw.utf8.count <= 1024, let colon = raw.firstIndex(of: ":") else { return nil }
        guard raw[..<colon].lowercased() == "webcredentials" else { return nil }
        let rest = raw[raw.index(after: colon)...]
        // 2. Query (modes).
        var authority = Substring(rest)
        var modes = Set<Mode>()
        if let question = rest.firstIndex(of: "?") {
            authority = rest[..<question]
            for item in rest[rest.index(after: question)...].split(separator: "&", omittingEmptySubsequences: true) {
                let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.first == "mode", parts.count == 2 else { continue }
                for token in parts[1].split(separator: "+") {
                    if let mode = Mode(rawValue: token.lowercased()) { modes.insert(mode) }
                }
            }
        }
        // 3. No path, fragment or user info.
        guard !authority.contains(where: { $0 == "/" || $0 == "#" || $0 == "@" }) else { return nil }
        // 4. Port.
        var hostPart = authority
        var port: Int?
        if let portColon = authority.lastIndex(of: ":") {
            let digits = authority[authority.index(after: portColon)...]
            guard let value = Port(parsing: digits) else { return nil }
            port = value.intValue
            hostPart = authority[..<portColon]
        }
        // 5. Host and wildcard.
        let wildcard = hostPart.hasPrefix("*.")
        guard let host = try? HostName(hostPart.dropFirst(wildcard ? 2 : 0), syntax: .entitlement).text,
            Self.isValidHost(host, developer: modes.contains(.developer), wildcard: wildcard)
        else { return nil }
        self.raw = raw
        self.host = host
        self.port = port
        self.wildcard = wildcard
        self.modes = modes
    }

    /// Whether the entry applies on this device (AD-2.6): `developer` needs developer mode and a
    /// development-signed app, `managed` a managed device and an app that receives managed domains.
    package func isActive(settings: SWCDeviceSettings, app: SWCApp) -> Bool {
        if modes.contains(.developer), !(settings.developerMode && app.developmentSigned) { return false }
        if modes.contains(.managed), !(settings.managedDevice && app.receivesManagedDomains) { return false }
        return true
    }

    /// The entitlement check of SWC-6.5 for one entry.
    ///
    /// The entry's host equals `host` (or, for `*.D`, `host` is a strict subdomain of `D`: the
    /// wildcard Decision of SWC-6.5); when `port` is given the entry must carry the same port, and
    /// when it is not, any port of the entry matches.
    package func covers(host: String, port: Int?) -> Bool {
        if let port, self.port != port { return false }
        if wildcard {
            return host.hasSuffix("." + self.host) && host.utf8.count > self.host.utf8.count + 1
        }
        return host == self.host
    }

    /// The association-record domain of this entry (host, port, wildcard; `spec/store.md` §2.3).
    package var recordDomain: SWCRecordDomain {
        SWCRecordDomain(host: host, port: port, wildcard: wildcard)
    }

    /// The AD-2.3 rules beyond the host syntax, for a host that is already an entitlement ``HostName``.
    static func isValidHost(_ host: String, developer: Bool, wildcard: Bool) -> Bool {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.count < 2 {
            // `localhost` only in developer entries; a wildcard's root needs a dot (`*.com` is invalid).
            return developer && !wildcard && host == "localhost"
        }
        let isIPv4 = labels.count == 4 && labels.allSatisfy { $0.allSatisfy(\.isNumber) }
        if isIPv4 { return developer && !wildcard }
        return true
    }
}

/// The domain part of an association record key: host, port and wildcard flag (`spec/store.md` §3).
public struct SWCRecordDomain: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The lowercased host (without `*.`).
    public var host: String
    /// The port, if any.
    public var port: Int?
    /// Whether the record is for `*.host`.
    public var wildcard: Bool

    /// Creates a record domain.
    public init(host: String, port: Int? = nil, wildcard: Bool = false) {
        self.host = host
        self.port = port
        self.wildcard = wildcard
    }

    public var description: String {
        (wildcard ? "*." : "") + host + (port.map { ":\($0)" } ?? "")
    }
}
