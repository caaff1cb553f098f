import SWCredKit
import SWCredTesting

/// The app under test and its device, shared by the suites.
enum TacoShop {
    static let appID = "ABCDE12345.com.example.tacoshop"
    static let app = SWCApp(
        appID: appID, associatedDomains: ["webcredentials:tacos.example", "webcredentials:tacos.example:8443"],
        displayName: "Taco Shop")

    /// A device on which tacos.example's association file lists the app (both entries approved).
    static func trustedKeychain() throws -> InMemoryKeychain {
        let keychain = InMemoryKeychain()
        try keychain.approve(appID: appID, domain: "tacos.example")
        try keychain.approve(appID: appID, domain: "tacos.example:8443")
        return keychain
    }
}
