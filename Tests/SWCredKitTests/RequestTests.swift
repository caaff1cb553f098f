import SWCredCore
import SWCredStore
import SWCredKit
import SWCredTesting
import Testing

@Suite("SecRequestSharedWebCredential (SWC-7)")
struct RequestTests {
    // MARK: SWC-7.2 validation

    @Test("SWC-7.2: an empty fqdn or account fails with errSecParam and nil credentials, in both profiles")
    func validation() async throws {
        for profile in SWCProfile.allCases {
            let fixture = try Fixture()
            let emptyFQDN = await fixture.swc.request(fqdn: "", account: nil, profile: profile)
            #expect(emptyFQDN.status == -50)
            #expect(emptyFQDN.credentials == nil)
            #expect(emptyFQDN.error?.message == "fqdn was empty or not a CFString")
            let emptyAccount = await fixture.swc.request(fqdn: nil, account: "", profile: profile)
            #expect(emptyAccount.status == -50)
            #expect(emptyAccount.error?.message == "account was empty or not a CFString")
        }
    }

    // MARK: SWC-7.3 legacy

    @Test("SWC-7.3: legacy returns the chosen item's real server, account, password and port")
    func legacyExample() async throws {
        let fixture = try Fixture(
            entitlement: ["webcredentials:example.com:8443"], approved: ["example.com:8443"], answers: [.choose(0)])
        try fixture.keychain.seed(server: "example.com", account: "alice", password: "pw", port: 8443)
        let report = await fixture.swc.request(fqdn: nil, account: nil)
        #expect(report.error == nil)
        #expect(report.credentials == [SharedWebCredential(server: "example.com", account: "alice", password: "pw", port: 8443)])
        // SWC-7.3 step 8: choosing records user approval `approved`.
        #expect(fixture.keychain.approval(appID: Fixture.appID, domain: "example.com:8443")?.user == .approved)
        let picker = try #require(fixture.user.pickers.first)
        #expect(picker.candidates == [SWCPrompt.Candidate(server: "example.com", account: "alice", port: 8443)])
    }

    @Test("SWC-7.3 step 8: choosing records user approval on the record of the covering wildcard entry")
    func approvalOnWildcard() async throws {
        let fixture = try Fixture(entitlement: ["webcredentials:*.example.com"], approved: ["*.example.com"], answers: [.choose(0)])
        try fixture.keychain.seed(server: "login.example.com", account: "alice", password: "pw")
        let report = await fixture.swc.request(fqdn: "login.example.com", account: nil)
        #expect(report.credentials?.first?.server == "login.example.com")
        #expect(fixture.keychain.approval(appID: Fixture.appID, domain: "*.example.com")?.user == .approved)
    }

    @Test("SWC-7.1: the port comes back for any stored port, 443 included, and not when unset")
    func ports() async throws {
        let fixture = try Fixture(
            entitlement: ["webcredentials:example.com"], approved: ["example.com"], answers: [.choose(0), .choose(0)])
        try fixture.keychain.seed(server: "example.com", account: "alice", password: "pw", port: 443)
        let withPort = await fixture.swc.request(fqdn: "example.com", account: "alice")
        #expect(withPort.credentials?.first?.port == 443)
        try fixture.keychain.seed(server: "example.com", account: "bob", password: "pw2")
        let noPort = await fixture.swc.request(fqdn: "example.com", account: "bob")
        #expect(noPort.credentials?.first?.port == nil)
        #expect(noPort.credentials?.first?.dictionary.keys.sorted() == ["acct", "spwd", "srvr"])
    }

    @Test("SWC-7.3: fqdn and account filter the search")
    func filters() async throws {
        let fixture = try Fixture(answers: [.choose(0)])
        try fixture.keychain.seed(server: "example.com", account: "alice", password: "a")
        try fixture.keychain.seed(server: "example.com", account: "bob", password: "b")
        let report = await fixture.swc.request(fqdn: "example.com", account: "bob")
        #expect(report.credentials?.map(\.account) == ["bob"])
        #expect(fixture.user.pickers.first?.candidates.map(\.account) == ["bob"])
    }

    @Test("SWC-7.3 step 1: AutoFill off gives errSecBadReq with the legacy message")
    func autoFill() async throws {
        let fixture = try Fixture(settings: SWCDeviceSettings(autoFillEnabled: false))
        let report = await fixture.swc.request(fqdn: "example.com", account: nil)
        #expect(report.status == -909)
        #expect(report.error?.message == "Autofill is not enabled in Safari settings")
        #expect(report.credentials == nil)
    }

    @Test("SWC-7.3 step 2: no webcredentials entry and no fqdn gives errSecParam \"No domain provided\"")
    func noDomain() async throws {
        let fixture = try Fixture(entitlement: ["applinks:example.com", "webcredentials:*.example.com"], approved: [])
        let report = await fixture.swc.request(fqdn: nil, account: nil)
        #expect(report.status == -50)
        #expect(report.error?.message == "No domain provided")
    }

    @Test("SWC-7.3 step 3: a given fqdn outside the entitlement gives errSecMissingEntitlement")
    func notEntitled() async throws {
        let fixture = try Fixture()
        let report = await fixture.swc.request(fqdn: "other.com", account: nil)
        #expect(report.status == -34018)
        #expect(report.error?.message == "other.com not found in com.apple.developer.associated-domains entitlement")
    }

    @Test("SWC-7.3 step 6: a single domain reports errSecItemNotFound or errSecAuthFailed")
    func singleDomainErrors() async throws {
        let empty = try Fixture()
        let notFound = await empty.swc.request(fqdn: "example.com", account: nil)
        #expect(notFound.status == -25300)
        #expect(notFound.credentials == nil)
        #expect(notFound.error?.code == .itemNotFound)
        let unapproved = try Fixture(approved: [])
        try unapproved.keychain.seed(server: "example.com", account: "alice", password: "pw")
        let denied = await unapproved.swc.request(fqdn: "example.com", account: nil)
        #expect(denied.status == -25293)
        #expect(denied.credentials == nil)
        #expect(unapproved.user.prompts.isEmpty)
    }

    @Test("SWC-7.3 step 4/6: several domains ignore per-domain errors; nothing kept is errSecItemNotFound")
    func severalDomains() async throws {
        let fixture = try Fixture(
            entitlement: ["webcredentials:a.example.com", "webcredentials:b.example.com"], approved: ["b.example.com"],
            answers: [.choose(0)])
        try fixture.keychain.seed(server: "a.example.com", account: "alice", password: "a")  // not approved
        let none = await fixture.swc.request(fqdn: nil, account: nil)
        #expect(none.status == -25300)
        #expect(none.error?.message == "no matching items found")
        try fixture.keychain.seed(server: "b.example.com", account: "bob", password: "b")
        let found = await fixture.swc.request(fqdn: nil, account: nil)
        #expect(found.credentials?.map(\.account) == ["bob"])
    }

    @Test("SWC-7.3 step 5: an item found through two domains is offered once")
    func noDuplicates() async throws {
        let fixture = try Fixture(
            entitlement: ["webcredentials:example.com", "webcredentials:example.com:8443"],
            approved: ["example.com", "example.com:8443"], answers: [.cancel])
        try fixture.keychain.seed(server: "example.com", account: "alice", password: "x", port: 8443)
        _ = await fixture.swc.request(fqdn: nil, account: nil)
        #expect(fixture.user.pickers.first?.candidates == [SWCPrompt.Candidate(server: "example.com", account: "alice", port: 8443)])
    }

    @Test("SWC-7.3 step 5: default-comment items first, each inserted at the head; negatives dropped")
    func ordering() async throws {
        let fixture = try Fixture(
            entitlement: ["webcredentials:a.example.com", "webcredentials:b.example.com"],
            approved: ["a.example.com", "b.example.com"], answers: [.cancel])
        try fixture.keychain.seed(server: "a.example.com", account: "other1", password: "x", comment: "")
        try fixture.keychain.seed(server: "a.example.com", account: "d1", password: "x")
        try fixture.keychain.seed(server: "b.example.com", account: "d2", password: "x")
        try fixture.keychain.seed(server: "b.example.com", account: "other2", password: "x", comment: "note")
        try fixture.keychain.seedPasswordsNotSaved(host: "b.example.com")
        _ = await fixture.swc.request(fqdn: nil, account: nil)
        #expect(fixture.user.pickers.first?.candidates.map(\.account) == ["d2", "d1", "other1", "other2"])
    }

    @Test("SWC-7.3 step 9: a legacy cancel gives an empty array and no error (Decision)")
    func legacyCancel() async throws {
        for answer in [SWCPromptAnswer.cancel, .notNow, .allow, .choose(7)] {
            let fixture = try Fixture(answers: [answer])
            try fixture.keychain.seed(server: "example.com", account: "alice", password: "pw")
            let report = await fixture.swc.request(fqdn: "example.com", account: nil)
            #expect(report.credentials == [])
            #expect(report.error == nil)
            #expect(report.canceled)
            #expect(fixture.keychain.approval(appID: Fixture.appID, domain: "example.com")?.user == .unspecified)
        }
    }

    @Test("SWC-5.4: items outside com.apple.cfnetwork or not synchronizable are invisible")
    func visibility() async throws {
        let fixture = try Fixture(answers: [.choose(0)])
        var privateItem = InternetPasswordItem.websitePassword(server: "example.com", account: "private", secret: [1])
        privateItem.accessGroup = "ABCDE12345.group"
        var localItem = InternetPasswordItem.websitePassword(server: "example.com", account: "local", secret: [1])
        localItem.synchronizable = false
        try fixture.keychain.seed(privateItem)
        try fixture.keychain.seed(localItem)
        let report = await fixture.swc.request(fqdn: "example.com", account: nil)
        #expect(report.status == -25300)
    }

    // MARK: SWC-7.4 current

    @Test("SWC-7.4: current echoes the entitlement's domain string verbatim and never returns a port")
    func currentExample() async throws {
        let fixture = try Fixture(
            entitlement: ["webcredentials:example.com:8443"], approved: ["example.com:8443"], answers: [.choose(0)],
            configuration: SWCConfiguration(profile: .current))
        try fixture.keychain.seed(server: "example.com", account: "alice", password: "pw", port: 8443)
        let report = await fixture.swc.request(fqdn: nil, account: nil)
        #expect(report.error == nil)
        #expect(report.credentials == [SharedWebCredential(server: "example.com:8443", account: "alice", password: "pw")])
        #expect(fixture.keychain.approval(appID: Fixture.appID, domain: "example.com:8443")?.user == .unspecified)
    }

    @Test("SWC-7.4 step 2: current runs no AutoFill, entitlement or approval check and ignores filters")
    func currentNoChecks() async throws {
        let fixture = try Fixture(
            answers: [.choose(0)], settings: SWCDeviceSettings(autoFillEnabled: false),
            configuration: SWCConfiguration(profile: .current))
        try fixture.keychain.seed(server: "example.com", account: "alice", password: "pw")
        let report = await fixture.swc.request(fqdn: "not-entitled.org", account: "bob")
        #expect(report.credentials == [SharedWebCredential(server: "not-entitled.org", account: "alice", password: "pw")])
    }

    @Test("SWC-7.4 step 1: no fqdn and no webcredentials: element gives errSecParam")
    func currentNoDomain() async throws {
        // The prefix is exact and case-sensitive.
        let fixture = try Fixture(entitlement: ["WebCredentials:example.com"], configuration: SWCConfiguration(profile: .current))
        let report = await fixture.swc.request(fqdn: nil, account: nil)
        #expect(report.status == -50)
        #expect(report.error?.message == "fqdn was NULL, and no associated domains found")
    }

    @Test("SWC-7.4 steps 4 and 6: nothing to offer or cancel gives [] and ASAuthorizationError 1001")
    func currentCancel() async throws {
        let empty = try Fixture(configuration: SWCConfiguration(profile: .current))
        let nothing = await empty.swc.request(fqdn: nil, account: nil)
        #expect(nothing.credentials == [])
        #expect(nothing.error?.code == .canceled)
        #expect(nothing.error?.code.domain == "com.apple.AuthenticationServices.AuthorizationError")
        #expect(nothing.status == 1001)
        #expect(empty.user.prompts.isEmpty)
        let fixture = try Fixture(answers: [.cancel], configuration: SWCConfiguration(profile: .current))
        try fixture.keychain.seed(server: "example.com", account: "alice", password: "pw")
        let canceled = await fixture.swc.request(fqdn: nil, account: nil)
        #expect(canceled.credentials == [])
        #expect(canceled.status == 1001)
        #expect(fixture.user.kinds == [.select])
    }

    @Test("SWC-7.4 step 3: candidates are items covered by an associated entry, port rule applied, store order")
    func currentCandidates() async throws {
        let fixture = try Fixture(
            entitlement: ["webcredentials:example.com", "webcredentials:*.shop.com", "webcredentials:other.com",
                          "webcredentials:dev.example.com?mode=developer", "webcredentials:p.com:8443"],
            approved: ["example.com", "*.shop.com", "dev.example.com?mode=developer", "p.com:8443"],
            answers: [.cancel], configuration: SWCConfiguration(profile: .current))
        try fixture.keychain.seed(server: "example.com", account: "a", password: "x")
        try fixture.keychain.seed(server: "www.shop.com", account: "b", password: "x")
        try fixture.keychain.seed(server: "shop.com", account: "c", password: "x")  // wildcard excludes its root
        try fixture.keychain.seed(server: "other.com", account: "d", password: "x")  // not approved
        try fixture.keychain.seed(server: "dev.example.com", account: "e", password: "x")  // mode-gated, inactive
        try fixture.keychain.seed(server: "p.com", account: "f", password: "x", port: 8443)
        try fixture.keychain.seed(server: "p.com", account: "g", password: "x", port: 9443)
        // A ported item needs an entry with the same port (SWC-6.5 with the item's port as the caller's).
        try fixture.keychain.seed(server: "example.com", account: "h", password: "x", port: 8080)
        _ = await fixture.swc.request(fqdn: "x", account: nil)
        #expect(fixture.user.pickers.first?.candidates.map(\.account) == ["a", "b", "f"])
    }

    @Test("SWC-5.5: the true port is stored and returned (no 16-bit wrap above 32767); port 0 is no port")
    func truePorts() async throws {
        let fixture = try Fixture(
            entitlement: ["webcredentials:example.com:40000", "webcredentials:example.com"],
            approved: ["example.com:40000", "example.com"], answers: [.allow, .choose(0), .allow])
        #expect(await fixture.swc.add(fqdn: "example.com:40000", account: "alice", password: "pw").outcome == .added)
        #expect(fixture.keychain.items.first?.port == 40000)
        let report = await fixture.swc.request(fqdn: "example.com:40000", account: nil)
        #expect(report.credentials?.first?.port == 40000)
        #expect(await fixture.swc.add(fqdn: "example.com:0", account: "bob", password: "pw").port == nil)
    }

    @Test("SWC-1.1: the profile table: filters, returned server and port, nothing to offer, cancel")
    func profileTable() async throws {
        for profile in SWCProfile.allCases {
            let fixture = try Fixture(
                entitlement: ["webcredentials:example.com:8443"], approved: ["example.com:8443"],
                answers: profile == .legacy ? [.cancel] : [.choose(0), .cancel],
                configuration: SWCConfiguration(profile: profile))
            let nothing = await fixture.swc.request(fqdn: nil, account: nil)
            #expect(nothing.credentials == (profile == .legacy ? nil : []))
            #expect(nothing.status == (profile == .legacy ? -25300 : 1001))
            try fixture.keychain.seed(server: "example.com", account: "alice", password: "pw", port: 8443)
            let chosen = await fixture.swc.request(fqdn: nil, account: "bob")  // legacy filters bob out
            if profile == .legacy {
                #expect(chosen.status == -25300)
            } else {
                #expect(chosen.credentials == [SharedWebCredential(server: "example.com:8443", account: "alice", password: "pw")])
            }
            let canceled = await fixture.swc.request(fqdn: nil, account: nil)
            #expect(canceled.credentials == [])
            #expect(canceled.status == (profile == .legacy ? 0 : 1001))
        }
    }

    @Test("SWC-1.2: the profile can be chosen per call; legacy is the default")
    func profilePerCall() async throws {
        let fixture = try Fixture()
        #expect(fixture.swc.configuration.profile == .legacy)
        #expect(await fixture.swc.request(fqdn: nil, account: nil).profile == .legacy)
        #expect(await fixture.swc.request(fqdn: nil, account: nil, profile: .current).status == 1001)
    }
}
