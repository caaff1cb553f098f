/// The flow of `swcred verify`: an iOS app's entitlement entries (``TrustEvaluator``) and Android
/// apps on hosts (Digital Asset Links: `handle_all_urls` and `get_login_creds`, per verifier,
/// DAL-Q1), and the table that compares the two platforms host by host (DAL-Q6).
///
/// The Android hosts are the `--host` hosts when any are given, else the hosts of the iOS app's
/// `webcredentials` and `applinks` entries (a `*.` entry's at its root, as a device checks it,
/// DAL-Q2). Each host's `assetlinks.json` is read once and resolved by each verifier once, up to
/// 8 hosts at a time; every app and relation is answered from those two resolutions.
///
/// ```swift
/// let app = try AndroidAppIdentity.parse("com.example.tacos=AB:CD:…")
/// let report = await CrossPlatformTrustEvaluator(
///     source: DirectoryAssociationSource(root: "Fixtures/sites"),
///     assetLinks: AssetLinksDirectorySource(root: "Fixtures/sites")
/// ).evaluate(app: nil, androidApps: [app], hosts: [try AssetLinksSite.https(host: "tacos.example")])
/// ```
package struct CrossPlatformTrustEvaluator: Sendable {
    /// The iOS side: the entitlement entries' flow, with its source, device and progress hook.
    package var ios: TrustEvaluator
    /// Where `assetlinks.json` files and their includes come from; `nil` when no Android app is
    /// checked (every host then answers that there is no source).
    package var assetLinks: (any AssetLinksListSource)?

    /// Creates the flow over an association-file source and an asset-links source.
    package init(
        source: any AssociationFileSource, assetLinks: (any AssetLinksListSource)?, device: DeviceSettings = .init()
    ) {
        ios = TrustEvaluator(source: source, device: device)
        self.assetLinks = assetLinks
    }

    /// How many hosts' `assetlinks.json` are read at the same time.
    static let maximumConcurrentHosts = 8

    /// Checks the iOS app (when given) and every Android app on every Android host.
    ///
    /// - Parameters:
    ///   - app: the iOS app and its entitlements, or `nil`.
    ///   - androidApps: the Android apps (`--android-app`).
    ///   - hosts: the Android hosts (`--host`); empty for the iOS app's hosts.
    ///   - services: the iOS services to check, `nil` for all; `applinks` keeps `handle_all_urls`
    ///     and `webcredentials` keeps `get_login_creds` on the Android side, and no table is made.
    package func evaluate(
        app: AppIdentity?, androidApps: [AndroidAppIdentity], hosts: [AssetLinksSite] = [],
        services: Set<AssociationService>? = nil
    ) async -> CrossPlatformTrustReport {
        var rows: [PlatformAssociation] = []
        var iosVerdicts: [AssociationVerdict] = []
        if let app {
            iosVerdicts = await ios.evaluate(app: app, services: services).associations
            rows = iosVerdicts.map(PlatformAssociation.ios)
        }
        let sites = Self.androidSites(explicit: hosts, app: app)
        let relations = [AssetLinksRelation.handleAllURLs, .getLoginCreds].filter { relation in
            guard let services else { return true }
            return services.contains(relation == .handleAllURLs ? .applinks : .webcredentials)
        }
        var android: [AndroidAssociationVerdict] = []
        if !androidApps.isEmpty, !relations.isEmpty {
            android = await verdicts(sites: sites, apps: androidApps, relations: relations)
            rows += android.map(PlatformAssociation.android)
        }
        var table: [CrossPlatformRow]?
        if !androidApps.isEmpty, services == nil {
            table = Self.table(sites: sites, apps: androidApps, app: app, ios: iosVerdicts, android: android)
        }
        return CrossPlatformTrustReport(
            appID: app?.appID, androidApps: androidApps.map(\.packageName),
            trusted: !rows.isEmpty && rows.allSatisfy(\.trusted), associations: rows, crossPlatform: table)
    }

    /// The Android hosts: `explicit` when given, else the iOS app's `webcredentials` and
    /// `applinks` hosts in entitlement order, each once.
    package static func androidSites(explicit: [AssetLinksSite], app: AppIdentity?) -> [AssetLinksSite] {
        var sites: [AssetLinksSite] = []
        let candidates =
            explicit.isEmpty
            ? (app?.entitlements.entries ?? []).compactMap { entry -> AssetLinksSite? in
                guard entry.valid, let domain = entry.domain,
                    domain.service == .webcredentials || domain.service == .applinks
                else { return nil }
                return AssetLinksSite(scheme: "https", host: domain.host, port: domain.port)
            } : explicit
        for site in candidates where !sites.contains(site) { sites.append(site) }
        return sites
    }

    /// The Android rows, by host, then app, then relation.
    private func verdicts(
        sites: [AssetLinksSite], apps: [AndroidAppIdentity], relations: [AssetLinksRelation]
    ) async -> [AndroidAssociationVerdict] {
        var byHost: [Int: [AndroidAssociationVerdict]] = [:]
        await withTaskGroup(of: (Int, [AndroidAssociationVerdict]).self) { group in
            var pending = sites.enumerated().makeIterator()
            var running = 0
            while running < Self.maximumConcurrentHosts, let (index, site) = pending.next() {
                group.addTask { (index, await self.verdicts(site: site, apps: apps, relations: relations)) }
                running += 1
            }
            while let (index, verdicts) = await group.next() {
                byHost[index] = verdicts
                if let (next, site) = pending.next() {
                    group.addTask { (next, await self.verdicts(site: site, apps: apps, relations: relations)) }
                }
            }
        }
        return sites.indices.flatMap { byHost[$0] ?? [] }
    }

    /// One host: its list read once, resolved once per verifier, asked for every app and relation.
    private func verdicts(
        site: AssetLinksSite, apps: [AndroidAppIdentity], relations: [AssetLinksRelation]
    ) async -> [AndroidAssociationVerdict] {
        let includes: any AssetLinksIncludeSource = assetLinks ?? NoAssetLinksIncludes()
        func root(_ verifier: AssetLinksVerifier) async -> AssetLinksFetch {
            await assetLinks?.statementList(for: site, verifier: verifier)
                ?? .failed(.fetchError, "no assetlinks.json source")
        }
        let google = await AssetLinksResolver(verifier: .google).resolve(
            await root(.google), source: .web(site), includes: includes)
        let device = await AssetLinksResolver(verifier: .android).resolve(
            await root(.android), source: .web(site), includes: includes)
        var rows: [AndroidAssociationVerdict] = []
        for app in apps {
            for relation in relations {
                rows.append(
                    AndroidAssociationVerdict(
                        app: app, site: site, relation: relation, source: assetLinks?.kind ?? ios.source.kind,
                        google: google.check(relation, app: app), android: device.check(relation, app: app)))
            }
        }
        return rows
    }

    /// One row per host and Android app (DAL-Q6).
    static func table(
        sites: [AssetLinksSite], apps: [AndroidAppIdentity], app: AppIdentity?, ios: [AssociationVerdict],
        android: [AndroidAssociationVerdict]
    ) -> [CrossPlatformRow] {
        var table: [CrossPlatformRow] = []
        for site in sites {
            // An exact entry for the host decides; a `*.` entry never covers its root (AD-8.2).
            func iosTrusted(_ service: AssociationService) -> Bool {
                ios.contains {
                    $0.service == service.rawValue && !$0.wildcard && $0.host == site.host && $0.port == site.port
                        && $0.trusted
                }
            }
            let iosSide = app.map { _ in
                CrossPlatformRow.Capabilities(
                    passwords: iosTrusted(.webcredentials), links: iosTrusted(.applinks),
                    passkeys: iosTrusted(.webcredentials))
            }
            for androidApp in apps {
                func trusted(_ relation: AssetLinksRelation) -> Bool {
                    android.contains {
                        $0.host == site.authority && $0.app == androidApp.packageName
                            && $0.relation == relation.shortName && $0.trusted
                    }
                }
                let passwords = trusted(.getLoginCreds)
                let links = trusted(.handleAllURLs)
                table.append(
                    CrossPlatformRow(
                        host: site.authority, iosApp: app?.appID, androidApp: androidApp.packageName, ios: iosSide,
                        android: .init(passwords: passwords, links: links, passkeys: passwords && links)))
            }
        }
        return table
    }
}
