package import FoundationEssentials
package import SWCredAssociation
package import SWCredCore
package import SWCredStore

/// Installing an app needs no association source (AD-5.2: records are created unchecked; files are
/// read only by a refresh), so these work without a daemon.
extension AssociationDaemon {
    /// The records an app's entitlement calls for on a device with `device`'s settings: one per
    /// active entry of a known service, both approvals `unspecified`, never checked, next check `now`.
    package static func records(
        for app: AppIdentity, device: DeviceSettings, now: Date
    ) -> [AssociationRecord] {
        var seen: Set<AssociationRecord.Key> = []
        var records: [AssociationRecord] = []
        for resolved in EntitlementResolver.resolve(app.entitlements, device: device) where resolved.active {
            guard let domain = resolved.domain,
                let service = AssociationRecord.Service(rawValue: domain.service.rawValue),
                let port = Self.storePort(domain.port)
            else { continue }
            let record = AssociationRecord(
                service: service,
                appID: app.appID,
                host: domain.host,
                port: port,
                isWildcard: domain.wildcard,
                modes: Self.storeModes(domain.modes),
                userApproval: .unspecified,
                siteApproval: .unspecified,
                lastChecked: .distantPast,
                nextCheck: now,
                retryCount: 0,
                lastError: nil,
                source: .downloaded
            )
            if seen.insert(record.key).inserted { records.append(record) }
        }
        return records
    }

    /// Makes `appID`'s records the `wanted` ones: creates those missing, updates the modes of those
    /// that exist (keeping their approvals and check times), removes the app's others; with
    /// `reinstall`, every record of the app is deleted and recreated first.
    /// - Returns: the app's records after the change.
    /// - Throws: the store's `invalidParameter` / `limitExceeded` for records it refuses.
    @discardableResult
    package static func install(
        _ wanted: [AssociationRecord], of appID: String, into contents: inout StoreContents, reinstall: Bool
    ) throws(SWCredError) -> [AssociationRecord] {
        let wantedKeys = Set(wanted.map(\.key))
        for existing in contents.associationRecords(appID: appID)
        where reinstall || !wantedKeys.contains(existing.key) {
            try contents.removeAssociationRecord(forKey: existing.key)
        }
        for record in wanted {
            if var existing = contents.associationRecord(forKey: record.key) {
                existing.modes = record.modes
                try contents.upsertAssociationRecord(existing)
            } else {
                try contents.upsertAssociationRecord(record)
            }
        }
        return contents.associationRecords(appID: appID)
    }
}
