package import SWCredCore

/// One saved item as a person names it: `DOMAIN ACCOUNT`, where `DOMAIN` is `HOST` or
/// `HOST:PORT` as `swcred list` prints it (cli.md "Names of one item").
///
/// Each name `list` prints, given back, finds exactly that item: `HOST:PORT` names that port
/// only; a plain `HOST` names the item saved without a port (port 0) when there is one, else the
/// one item of that host and account on whatever port. When several ports hold one and none is
/// portless, the name is ambiguous: `usage` (exit 64) with the candidates listed, never one of
/// them picked silently.
package struct ItemName: Sendable, Equatable {
    /// The site part.
    package let site: SiteName
    /// The account, as given (exact bytes).
    package let account: String

    /// Parses `domain` (``SiteName``) and keeps `account`.
    /// - Throws: `invalidParameter` for a malformed domain.
    package init(domain: String, account: String) throws(SWCredError) {
        self.site = try SiteName(domain)
        self.account = account
    }

    /// Every item this name could mean: the host and account on the given port, or on any port.
    package var candidates: ItemQuery {
        ItemQuery(server: site.host, account: account, port: site.port, synchronizable: .any)
    }

    /// The port the name resolves to among `items` (the items `candidates` matched), or `nil`
    /// when there is none.
    /// - Throws: `usage` (exit 64) when a plain host matches items on several ports and none is
    ///   portless; the message lists them as `list` prints them.
    package func port(among items: [InternetPasswordItem]) throws(SWCredError) -> UInt16? {
        if let port = site.port { return items.contains { $0.port == port } ? port : nil }
        var ports: [UInt16] = []
        for item in items where !ports.contains(item.port) { ports.append(item.port) }
        if ports.contains(0) { return 0 }
        guard ports.count <= 1 else {
            let names = ports.sorted().map { "\(site.host):\($0) \(account)" }.joined(separator: ", ")
            throw SWCredError(
                .usage,
                "\(site.host) \(account) names \(ports.count) items, on different ports: \(names); "
                    + "give DOMAIN as HOST:PORT")
        }
        return ports.first
    }

    /// The query for this name's items on `port` (what ``port(among:)`` resolved).
    package func query(port: UInt16) -> ItemQuery {
        ItemQuery(server: site.host, account: account, port: port, synchronizable: .any)
    }
}
