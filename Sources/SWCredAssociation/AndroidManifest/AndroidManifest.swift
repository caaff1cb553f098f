package import SWCredCore

/// What `verify --android-manifest` needs of an `AndroidManifest.xml` (asset-links.md §1.4, §1.5):
/// the package, the App Links intent filters with their hosts, and the `asset_statements`
/// meta-data's resource. Read by ``parse(_:strings:)`` through the bounded ``XMLElementReader``.
package struct AndroidManifest: Sendable, Hashable {
    /// One `<intent-filter>` of an activity (or activity alias) with `http`/`https` data.
    package struct IntentFilter: Sendable, Hashable {
        /// The activity's `android:name`.
        package var activity: String
        /// `android:autoVerify="true"`.
        package var autoVerify: Bool
        /// Action `android.intent.action.VIEW` and categories `DEFAULT` and `BROWSABLE`.
        package var isWebView: Bool
        /// Every `android:scheme` of the filter's `<data>` elements (they combine across elements).
        package var schemes: [String]
        /// Every `android:host`, as written or resolved from `@string/…`, lower-cased.
        package var hosts: [String]

        /// Whether a device verifies the filter's hosts (Android 12+): `autoVerify`, VIEW,
        /// DEFAULT and BROWSABLE, and only `http`/`https` schemes.
        package var isVerifiable: Bool {
            autoVerify && isWebView && !schemes.isEmpty && schemes.allSatisfy { $0 == "http" || $0 == "https" }
        }
    }

    /// `<manifest package>`; `nil` when absent (AGP 7+ sets it from the build's `namespace`).
    package var packageName: String?
    /// The intent filters with an `http` or `https` scheme, in document order.
    package var webFilters: [IntentFilter]
    /// The `android:resource` of `<meta-data android:name="asset_statements">`, as written.
    package var assetStatementsResource: String?
    /// The `asset_statements` string, unescaped, when the resource is `@string/NAME` and the
    /// strings file defines it.
    package var assetStatements: String?
    /// Findings on the manifest and strings (DAL-Q2, DAL-Q5), in document order.
    package var findings: [Diagnostic]

    /// The hosts a device verifies, each once, in document order; a `*.` host is listed as
    /// written (verified at its root, DAL-Q2).
    package var verifiedHosts: [String] {
        var hosts: [String] = []
        for filter in webFilters where filter.isVerifiable {
            for host in filter.hosts where !hosts.contains(host) { hosts.append(host) }
        }
        return hosts
    }

    /// The host whose `assetlinks.json` a device reads for `host`: a `*.` host's root (DAL-Q2).
    package static func verificationHost(_ host: String) -> String {
        host.hasPrefix("*.") ? String(host.dropFirst(2)) : host
    }

    /// Reads a manifest and, optionally, the `strings.xml` its `@string/…` references name.
    ///
    /// - Throws: `malformedInput` (65) when either file is not well-formed XML or is not a
    ///   `<manifest>` / `<resources>` document.
    package static func parse(_ manifest: [UInt8], strings: [UInt8]? = nil) throws(SWCredError) -> AndroidManifest {
        let root = try XMLElementReader.read(manifest, what: "AndroidManifest.xml")
        guard root.name == "manifest" else {
            throw SWCredError(.malformedInput, "AndroidManifest.xml's root element is <\(root.name)>, not <manifest>")
        }
        let resources = try strings.map { bytes throws(SWCredError) in try AndroidStringResources.parse(bytes) }
        var result = AndroidManifest(
            packageName: root[attribute: "package"], webFilters: [], assetStatementsResource: nil,
            assetStatements: nil, findings: [])
        let applications = root.children(named: "application")
        for application in applications {
            for component in application.children
            where component.name == "activity" || component.name == "activity-alias" {
                let activity = component[attribute: "android:name"] ?? component.name
                for filter in component.children(named: "intent-filter") {
                    if let read = result.filter(filter, activity: activity, strings: resources) {
                        result.webFilters.append(read)
                    }
                }
            }
            for meta in application.children(named: "meta-data")
            where meta[attribute: "android:name"] == "asset_statements" {
                result.assetStatementsResource = meta[attribute: "android:resource"] ?? meta[attribute: "android:value"]
            }
        }
        result.checkFilters()
        result.readAssetStatements(resources)
        return result
    }

    /// One intent filter with an `http`/`https` scheme, or `nil` for another filter.
    private mutating func filter(
        _ element: MarkupElement, activity: String, strings: AndroidStringResources?
    ) -> IntentFilter? {
        let actions = element.children(named: "action").compactMap { $0[attribute: "android:name"] }
        let categories = element.children(named: "category").compactMap { $0[attribute: "android:name"] }
        var schemes: [String] = []
        var hosts: [String] = []
        for data in element.children(named: "data") {
            if let scheme = data[attribute: "android:scheme"] {
                let lower = HostName.lowercasedASCII(scheme)
                if !schemes.contains(lower) { schemes.append(lower) }
            }
            if let written = data[attribute: "android:host"] {
                var host = written
                if written.hasPrefix("@string/") {
                    guard let resolved = strings?.strings[String(written.dropFirst(8))] else {
                        findings.append(
                            .warning(
                                "\(activity): the host \(written) is not in the strings file given; "
                                    + "give --android-strings to check it",
                                rule: .dalQ2))
                        continue
                    }
                    host = resolved
                }
                let lower = HostName.lowercasedASCII(host)
                if !hosts.contains(lower) { hosts.append(lower) }
            }
        }
        guard schemes.contains("http") || schemes.contains("https") else { return nil }
        return IntentFilter(
            activity: activity, autoVerify: element[attribute: "android:autoVerify"] == "true",
            isWebView: actions.contains("android.intent.action.VIEW")
                && categories.contains("android.intent.category.DEFAULT")
                && categories.contains("android.intent.category.BROWSABLE"),
            schemes: schemes, hosts: hosts)
    }

    /// DAL-Q2 findings on the filters: `autoVerify` filters a device will not verify.
    private mutating func checkFilters() {
        for filter in webFilters where filter.autoVerify && !filter.isVerifiable {
            let why =
                !filter.isWebView
                ? "it lacks action VIEW or category DEFAULT or BROWSABLE"
                : "it mixes other schemes (\(filter.schemes.joined(separator: ", "))) with http/https"
            findings.append(
                .error(
                    "\(filter.activity): an autoVerify filter for \(filter.hosts.joined(separator: ", ")) is not "
                        + "verified on Android 12+: \(why)",
                    rule: .dalQ2))
        }
        if webFilters.contains(where: \.autoVerify), verifiedHosts.isEmpty {
            findings.append(.error("no intent filter is verifiable: App Links are never verified", rule: .dalQ2))
        }
    }
}
