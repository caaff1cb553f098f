extension CrossPlatformTrustEvaluator {
    /// ``evaluate(app:androidApps:hosts:services:)`` for an app described by its manifest
    /// (`verify --android-manifest`): without explicit `hosts`, the manifest's verifiable hosts,
    /// a `*.` host at its root (DAL-Q2); the report carries the manifest's findings and, when a
    /// host fails `handle_all_urls` for the manifest's app among several, the Android 11 and
    /// lower "all or none" finding.
    package func evaluate(
        app: AppIdentity?, androidApps: [AndroidAppIdentity], manifest: AndroidManifest,
        hosts: [AssetLinksSite] = [], services: Set<AssociationService>? = nil
    ) async -> CrossPlatformTrustReport {
        var sites = hosts
        if sites.isEmpty {
            for host in manifest.verifiedHosts {
                let root = AndroidManifest.verificationHost(host)
                let site = AssetLinksSite(scheme: "https", host: root)
                if !sites.contains(site) { sites.append(site) }
            }
        }
        var manifestReport = AndroidManifestReport(manifest)
        for host in manifest.verifiedHosts where host.hasPrefix("*.") {
            manifestReport.findings.append(
                .note(
                    "\(host) is verified at \(AndroidManifest.verificationHost(host)): a device reads that host's "
                        + "assetlinks.json for every subdomain", rule: .dalQ2))
        }
        var report = await evaluate(app: app, androidApps: androidApps, hosts: sites, services: services)
        let package = manifest.packageName ?? androidApps.first?.packageName
        let links = report.associations.compactMap { row -> AndroidAssociationVerdict? in
            guard case .android(let verdict) = row, verdict.app == package,
                verdict.relation == AssetLinksRelation.handleAllURLs.shortName
            else { return nil }
            return verdict
        }
        let failing = links.filter { !$0.trusted }.map(\.host)
        if links.count > 1, !failing.isEmpty {
            manifestReport.findings.append(
                .warning(
                    "on Android 11 and lower App Links verification is all or none: \(failing.joined(separator: ", ")) "
                        + "\(failing.count == 1 ? "fails" : "fail"), so such a device verifies none of the app's "
                        + "\(links.count) hosts; Android 12+ verifies each host on its own", rule: .dalQ2))
        }
        if sites.isEmpty {
            manifestReport.findings.append(
                .warning(
                    "the manifest names no verifiable host and no --host is given: nothing is checked", rule: .dalQ2))
        }
        report.androidManifest = manifestReport
        return report
    }
}
