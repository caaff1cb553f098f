/// One host of the cross-platform table (DAL-Q6): what the iOS app and one Android app are
/// trusted for there, and every asymmetry as a sentence (`verify`'s `"crossPlatform"` element).
package struct CrossPlatformRow: Sendable, Hashable, Encodable {
    /// What one platform's app may do on the host.
    package struct Capabilities: Sendable, Hashable, Encodable {
        /// iOS: `webcredentials` trusted; Android: `get_login_creds`.
        package var passwords: Bool
        /// iOS: `applinks` trusted; Android: `handle_all_urls`.
        package var links: Bool
        /// iOS: `webcredentials` trusted; Android: both relations (DAL-Q4).
        package var passkeys: Bool

        /// Creates the capabilities.
        package init(passwords: Bool, links: Bool, passkeys: Bool) {
            self.passwords = passwords
            self.links = links
            self.passkeys = passkeys
        }
    }

    /// The host (`host[:port]`).
    package var host: String
    /// The iOS app ID compared, `null` without `--entitlements`.
    package var iosApp: String?
    /// The Android app's package name.
    package var androidApp: String
    /// The iOS app's capabilities on the host, `null` without an iOS app.
    package var ios: Capabilities?
    /// The Android app's capabilities (the device's verdicts).
    package var android: Capabilities
    /// One sentence per capability the two apps do not share.
    package var asymmetries: [String]

    /// Creates the row and words its asymmetries.
    package init(host: String, iosApp: String?, androidApp: String, ios: Capabilities?, android: Capabilities) {
        self.host = host
        self.iosApp = iosApp
        self.androidApp = androidApp
        self.ios = ios
        self.android = android
        var sentences: [String] = []
        if let iosApp, let ios {
            for (name, onIOS, onAndroid) in [
                ("passwords", ios.passwords, android.passwords), ("links", ios.links, android.links),
                ("passkeys", ios.passkeys, android.passkeys),
            ] where onIOS != onAndroid {
                sentences.append(
                    onIOS
                        ? "iOS app \(iosApp) is trusted for \(name) on \(host), Android app \(androidApp) is not"
                        : "Android app \(androidApp) is trusted for \(name) on \(host), iOS app \(iosApp) is not")
            }
        }
        asymmetries = sentences
    }

    private enum CodingKeys: String, CodingKey {
        case host, iosApp, androidApp, ios, android, asymmetries
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(host, forKey: .host)
        try container.encode(iosApp, forKey: .iosApp)
        try container.encode(androidApp, forKey: .androidApp)
        try container.encode(ios, forKey: .ios)
        try container.encode(android, forKey: .android)
        try container.encode(asymmetries, forKey: .asymmetries)
    }
}
