import SWCredCore

package import SWCredAssociation
import SWCredDaemon
package import SWCredStore

/// One `webcredentials:` element of the associated-domains entitlement (AD-2.2, AD-2.3).
///
/// The Shared Web Credentials checks' view of an ``AssociatedDomain``: the entitlement parser
/// (`EntitlementEntry.parse`) reads the element, once, with the same rules `swcred entitlements`
/// and `swcred lint` apply; this keeps what the checks need. Elements of other services, and
/// elements the parser does not accept as valid, do not parse (`init(parsing:)` returns `nil`).
package struct WebCredentialsEntry: Sendable, Hashable, CustomStringConvertible {
    /// The element as written in the entitlement.
    package let raw: String
    /// The parsed element.
    package let domain: AssociatedDomain

    /// The host, lowercased, without the `*.` of a wildcard.
    package var host: String { domain.host }
    /// The port, when the element names one (1–65535).
    package var port: Int? { domain.port }
    /// `*.host`: covers the strict subdomains of ``host`` and not ``host`` itself (AD-8.2).
    package var wildcard: Bool { domain.wildcard }
    /// The alternate modes of the element (`?mode=developer+managed`); empty for a plain element.
    package var modes: AssociationModes { domain.modes }

    package var description: String { raw }

    /// Parses an entitlement element; `nil` unless it is a valid `webcredentials` element
    /// (AD-2.2, AD-2.3: the entitlement parser's verdict).
    package init?(parsing raw: String) {
        let entry = EntitlementEntry.parse(raw)
        guard entry.valid, let domain = entry.domain, domain.service == .webcredentials else { return nil }
        self.raw = raw
        self.domain = domain
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

    /// The key of this entry's `webcredentials` record for `appID` (host, port, wildcard;
    /// `spec/store.md` §2.3, §3).
    package func recordKey(appID: String) -> AssociationRecord.Key {
        .webCredentials(appID: appID, host: host, port: port, isWildcard: wildcard)
    }
}

extension WebCredentialsEntry {
    /// The entry's modes as an association record keeps them (`spec/store.md` §2.3).
    package var recordModes: Set<AssociationRecord.Mode> { AssociationDaemon.storeModes(modes) }
}
