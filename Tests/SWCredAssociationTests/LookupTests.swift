import Foundation
import SWCredAssociation
import SWCredCore
import Testing

@Suite("Domain lookup (section 8)")
struct LookupTests {
    typealias T = TestSupport

    static func resolved(_ domains: [String]) -> [ResolvedEntry] {
        EntitlementResolver.resolve(
            Entitlements(applicationIdentifier: T.appID, associatedDomains: domains),
            device: DeviceSettings())
    }

    @Test("AD-8.1: exact entries cover exactly their host, case-insensitively")
    func exact() {
        let entries = Self.resolved(["applinks:Example.com"])
        #expect(DomainLookup.candidates(for: "EXAMPLE.COM", among: entries).count == 1)
        #expect(DomainLookup.candidates(for: "www.example.com", among: entries).isEmpty)
    }

    @Test("AD-8.2: *.D covers every subdomain at any depth, never D itself")
    func wildcard() {
        let entries = Self.resolved(["applinks:*.mywebsite.com"])
        #expect(DomainLookup.candidates(for: "a.mywebsite.com", among: entries).count == 1)
        #expect(DomainLookup.candidates(for: "a.b.mywebsite.com", among: entries).count == 1)
        #expect(DomainLookup.candidates(for: "mywebsite.com", among: entries).isEmpty)
        #expect(DomainLookup.candidates(for: "notmywebsite.com", among: entries).isEmpty)
    }

    @Test("AD-8.3: the longest wildcard wins (emily.users.mywebsite.com)")
    func longestWildcard() {
        let entries = Self.resolved(["applinks:*.mywebsite.com", "applinks:*.users.mywebsite.com"])
        let candidates = DomainLookup.candidates(for: "emily.users.mywebsite.com", among: entries)
        #expect(candidates.map(\.entry.raw) == ["applinks:*.users.mywebsite.com"])
        // AD-8.4: the wildcard's file comes from its root domain.
        #expect(candidates.first?.domain?.aasaHost == "users.mywebsite.com")
    }

    @Test("AD-8.5: exact before wildcard; an inactive entry is not consulted")
    func exactFirst() {
        let entries = Self.resolved([
            "applinks:*.example.com", "applinks:www.example.com",
            "applinks:api.example.com?mode=developer",
        ])
        #expect(
            DomainLookup.candidates(for: "www.example.com", among: entries).map(\.entry.raw)
                == ["applinks:www.example.com", "applinks:*.example.com"])
        #expect(
            DomainLookup.candidates(for: "api.example.com", among: entries).map(\.entry.raw) == [
                "applinks:*.example.com"
            ])
    }

    static func sites() throws -> URL {
        let root = try T.temporaryDirectory()
        try T.write(
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/menu/*"},{"/":"/secret","exclude":true}]}]}}"#,
            to: "www.example.com/.well-known/apple-app-site-association", in: root)
        try T.write(
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/promo*"},{"/":"/secret"}]}]}}"#,
            to: "example.com/.well-known/apple-app-site-association", in: root)
        return root
    }

    @Test("AD-8.5: the spec example: /promo falls back to the wildcard's root file; exclude at the exact host is final")
    func fallback() async throws {
        let root = try Self.sites()
        let app = try AppIdentity(
            entitlements: Entitlements(
                applicationIdentifier: T.appID,
                associatedDomains: [
                    "applinks:www.example.com", "applinks:*.example.com",
                ]))
        let resolver = LinkResolver(evaluator: TrustEvaluator(source: DirectoryAssociationSource(root: root.path)))
        let promo = await resolver.decide(try LinkURL("https://www.example.com/promo"), app: app)
        #expect(promo.outcome == .match)
        #expect(promo.entitlement == "applinks:*.example.com")
        #expect(promo.aasaHost == "example.com")
        let menu = await resolver.decide(try LinkURL("https://www.example.com/menu/1"), app: app)
        #expect(menu.outcome == .match)
        #expect(menu.entitlement == "applinks:www.example.com")
        let secret = await resolver.decide(try LinkURL("https://www.example.com/secret"), app: app)
        #expect(secret.outcome == .exclude)
        #expect(secret.entitlement == "applinks:www.example.com")
        let none = await resolver.decide(try LinkURL("https://other.example/promo"), app: app)
        #expect(none.outcome == .noMatch)
        #expect(none.entitlement == nil)
    }

    @Test("AD-8.5: an exact entry whose file is missing or does not list the app falls back to the wildcard")
    func fallbackWhenNotAssociated() async throws {
        let root = try Self.sites()
        let app = try AppIdentity(
            entitlements: Entitlements(
                applicationIdentifier: T.appID,
                associatedDomains: [
                    "applinks:shop.example.com", "applinks:*.example.com",
                ]))
        let resolver = LinkResolver(evaluator: TrustEvaluator(source: DirectoryAssociationSource(root: root.path)))
        let promo = await resolver.decide(try LinkURL("https://shop.example.com/promo/1"), app: app)
        #expect(promo.outcome == .match)
        #expect(promo.entitlement == "applinks:*.example.com")
    }

    @Test("AD-2.4: an applinks entry with a port never opens a URL, with or without the port in the URL")
    func portedEntry() async throws {
        let root = try T.temporaryDirectory()
        try T.write(
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{}]}]}}"#,
            to: "www.example.com:8443/.well-known/apple-app-site-association", in: root)
        let app = try AppIdentity(
            entitlements: Entitlements(
                applicationIdentifier: T.appID,
                associatedDomains: [
                    "applinks:www.example.com:8443"
                ]))
        let resolver = LinkResolver(evaluator: TrustEvaluator(source: DirectoryAssociationSource(root: root.path)))
        #expect(await resolver.decide(try LinkURL("https://www.example.com:8443/a"), app: app).outcome == .noMatch)
        #expect(await resolver.decide(try LinkURL("https://www.example.com/a"), app: app).outcome == .noMatch)
    }

    @Test("AD-2.4/AD-7.1: a URL with a non-default port never opens the app")
    func portedURL() async throws {
        let root = try Self.sites()
        let app = try AppIdentity(
            entitlements: Entitlements(
                applicationIdentifier: T.appID,
                associatedDomains: [
                    "applinks:www.example.com"
                ]))
        let resolver = LinkResolver(evaluator: TrustEvaluator(source: DirectoryAssociationSource(root: root.path)))
        #expect(await resolver.decide(try LinkURL("https://www.example.com:8443/menu/1"), app: app).outcome == .noMatch)
    }

    @Test("Seed WWDC19: an IDN host in a URL is looked up by its Punycode form")
    func idnURL() async throws {
        let root = try T.temporaryDirectory()
        try T.write(
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{}]}]}}"#,
            to: "xn--fhqz97e.example.xn--fiqs8s/.well-known/apple-app-site-association", in: root)
        let app = try AppIdentity(
            entitlements: Entitlements(
                applicationIdentifier: T.appID,
                associatedDomains: [
                    "applinks:xn--fhqz97e.example.xn--fiqs8s"
                ]))
        let url = try LinkURL("https://\u{4E2D}\u{6587}.example.\u{4E2D}\u{56FD}/x")
        #expect(url.host == "xn--fiq228c.example.xn--fiqs8s")
        let resolver = LinkResolver(evaluator: TrustEvaluator(source: DirectoryAssociationSource(root: root.path)))
        let direct = try LinkURL("https://xn--fhqz97e.example.xn--fiqs8s/x")
        #expect(await resolver.decide(direct, app: app).outcome == .match)
    }
}
