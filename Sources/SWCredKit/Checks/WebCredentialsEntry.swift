import SWCredCore

public import SWCredAssociation
import SWCredDaemon
import SWCredStore

/// One `webcredentials:` element of the associated-domains entitlement (AD-2.2, AD-2.3).
///
/// The Shared Web Credentials checks' view of an ``AssociatedDomain``: the entitlement parser
/// (`EntitlementEntry.parse`) reads the element, once, with the same rules `swcred entitlements`
/// and `swcred lint` apply; this keeps what the checks need. Elements of other services, and
/// elements the parser does not accept as valid, do not parse (`init(parsing:)` returns `nil`).
public struct WebCredentialsEntry: Sendable, Hashable, CustomStringConvertible {
    /// The element as written in the entitlement.
    public let raw: String
    /// The parsed element.
    public let domain: AssociatedDomain

    /// The host, lowercased, without the `*.` of a wildcard.
    public var host: String { domain.host }
    /// The port, when the element names one (1–65535).
    public var port: Int? { domain.port }
    /// `*.host`: covers the strict subdomains of ``host`` and not ``host`` itself (AD-8.2).
    public var wildcard: Bool { domain.wildcard }
    /// The alternate modes of the element (`?mode=developer+managed`); empty for a plain element.
    public var modes: AssociationModes { domain.modes }

    public var description: String { raw }

    /// Parses an entitlement element; `nil` unless it is a valid `webcredentials` element
    /// (AD-2.2, AD-2.3: the entitlement parser's verdict).
    public init?(parsing raw: String) {
        let entry = EntitlementEntry.parse(raw)
        guard entry.valid, let domain = entry.domain, domain.service == .webcredentials else { return nil }
        self.raw = raw
        self.domain = domain
    }

    /// Whether the entry applies on this device (AD-2.6): `developer` needs developer mode and a
    /// development-signed app, `managed` a managed device and an app that receives managed domains.
    public func isActive(settings: SWCDeviceSettings, app: SWCApp) -> Bool {
        if modes.contains(.developer), !(settings.developerMode && app.developmentSigned) { return false }
        if modes.contains(.managed), !(settings.managedDevice && app.receivesManagedDomains) { return false }
        return true
    }

    /// The entitlement check of SWC-6.5 for one entry.
    ///
    /// The entry's host equals `host` (or, for `*.D`, `host` is a strict subdomain of `D`: the
    /// wildcard Decision of SWC-6.5); when `port` is given the entry must carry the same port, and
    /// when it is not, any port of the entry matches.
    public func covers(host: String, port: Int?) -> Bool {
        if let port, self.port != port { return false }
        if wildcard {
            return host.hasSuffix("." + self.host) && host.utf8.count > self.host.utf8.count + 1
        }
        return host == self.host
    }

    /// The association-record domain of this entry (host, port, wildcard; `spec/store.md` §2.3).
    public var recordDomain: SWCRecordDomain {
        SWCRecordDomain(host: host, port: port, wildcard: wildcard)
    }
}

extension WebCredentialsEntry {
    /// The entry's modes as an association record keeps them (`spec/store.md` §2.3).
    package var recordModes: Set<AssociationRecord.Mode> { AssociationDaemon.storeModes(modes) }
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
