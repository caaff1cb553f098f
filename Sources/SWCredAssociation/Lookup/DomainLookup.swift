import SWCredCore

/// Domain lookup (section 8): which entitlement entries cover a host, in the order their files are
/// consulted.
package enum DomainLookup {
    /// The entries of `service` that cover `host`, in consultation order (AD-8.1 to AD-8.5): the
    /// exact entry first (if any), then the longest covering wildcard (only one, AD-8.5 Decision).
    ///
    /// - Parameters:
    ///   - host: lowercase ASCII host of the URL.
    ///   - entries: resolved entries; only `active` ones are considered (mode gating, AD-2.6).
    ///   - service: the service, normally `applinks`.
    ///   - port: the entry port to match; `nil` for entries without a port.
    /// - Returns: the exact entry (if any), then the longest covering wildcard (if any).
    package static func candidates(
        for host: String, among entries: [ResolvedEntry],
        service: AssociationService = .applinks, port: Int? = nil
    ) -> [ResolvedEntry] {
        let host = HostName.lowercasedASCII(host)
        let usable = entries.filter { item in
            guard item.active, let domain = item.domain else { return false }
            return domain.service == service && domain.port == port && domain.covers(host: host)
        }
        var result: [ResolvedEntry] = []
        if let exact = usable.first(where: { $0.domain?.wildcard == false }) { result.append(exact) }
        // AD-8.3: the longest wildcard wins.
        let wildcards = usable.filter { $0.domain?.wildcard == true }
        if let longest = wildcards.max(by: { ($0.domain?.host.count ?? 0) < ($1.domain?.host.count ?? 0) }) {
            result.append(longest)
        }
        return result
    }
}
