import Foundation
import SWCredCore
import SWCredKit
import SWCredStore
import SWCredTesting
import Synchronization
import Testing

@Suite("SecAddSharedWebCredential (SWC-6)")
struct AddTests {
    // MARK: SWC-6.1 validation

    @Test(
        "SWC-6.1: nil or empty fqdn / account fail with errSecParam before any other check",
        arguments: [(nil, "alice"), ("", "alice"), ("example.com", nil), ("example.com", "")] as [(String?, String?)])
    func validation(fqdn: String?, account: String?) async throws {
        // AutoFill off and no entitlement: validation still comes first.
        let fixture = try Fixture(entitlement: [], approved: [], appID: nil, settings: SWCDeviceSettings(autoFillEnabled: false))
        let report = await fixture.swc.add(fqdn: fqdn, account: account, password: "pw")
        #expect(report.osStatus == -50)
        #expect(report.completionError?.message == "fqdn or account was not of type CFString, or not provided")
        #expect(fixture.user.prompts.isEmpty)
    }

    @Test("SWC-6.1: an empty password string is accepted")
    func emptyPassword() async throws {
        let fixture = try Fixture(answers: [.allow])
        let report = await fixture.swc.add(fqdn: "example.com", account: "alice", password: "")
        #expect(report.outcome == .added)
        #expect(report.completionError == nil)
        #expect(fixture.keychain.items.first?.secret == [])
    }

    // MARK: SWC-6.2 platform

    @Test("SWC-6.2: macos gives errSecUnimplemented, other gives errSecParam")
    func platforms() async throws {
        let mac = try Fixture(configuration: SWCConfiguration(platform: .macos))
        let macReport = await mac.swc.add(fqdn: "example.com", account: "alice", password: "pw")
        #expect(macReport.osStatus == -4)
        #expect(macReport.completionError?.message == "SecAddSharedWebCredentialSync not supported on this platform")
        let tv = try Fixture(configuration: SWCConfiguration(platform: .other))
        let tvReport = await tv.swc.add(fqdn: "example.com", account: "alice", password: "pw")
        #expect(tvReport.osStatus == -50)
        #expect(tvReport.completionError?.message == "SharedWebCredentials not supported on this platform")
    }

    // MARK: SWC-6.3 order of checks

    @Test("SWC-6.3 step 1: AutoFill off gives errSecBadReq with the profile's message, before the entitlement")
    func autoFillFirst() async throws {
        for profile in SWCProfile.allCases {
            let fixture = try Fixture(
                entitlement: [], approved: [], settings: SWCDeviceSettings(autoFillEnabled: false),
                configuration: SWCConfiguration(profile: profile))
            let report = await fixture.swc.add(fqdn: "example.com", account: "alice", password: "pw")
            #expect(report.osStatus == -909)
            #expect(report.completionError?.code == .autoFillDisabled)
            #expect(report.completionError?.message == profile.autoFillDisabledMessage)
        }
    }

    @Test("SWC-6.3 step 3: an unparsable fqdn gives errSecParam \"No domain provided\"",
          arguments: ["*.example.com", "exämple.com", "example.com:70000", ":443", "exa mple.com", "example.com:12ab"])
    func unparsable(fqdn: String) async throws {
        let fixture = try Fixture()
        let report = await fixture.swc.add(fqdn: fqdn, account: "alice", password: "pw")
        #expect(report.osStatus == -50)
        #expect(report.completionError?.message == "No domain provided")
    }

    @Test("SWC-6.3 step 4: no application identifier gives errSecMissingEntitlement")
    func noAppID() async throws {
        let fixture = try Fixture(appID: nil)
        let report = await fixture.swc.add(fqdn: "example.com", account: "alice", password: "pw")
        #expect(report.osStatus == -34018)
        #expect(report.completionError?.message == "Missing application-identifier entitlement")
    }

    @Test("SWC-6.3 order: entitlement before site approval, approval before the negative entry")
    func order() async throws {
        // Not entitled and not approved: the entitlement error wins.
        let a = try Fixture(entitlement: ["webcredentials:other.com"], approved: [])
        #expect(await a.swc.add(fqdn: "example.com", account: "alice", password: "pw").osStatus == -34018)
        // Entitled, not approved, with a negative entry: approval wins.
        let b = try Fixture(approved: [])
        try b.keychain.seedPasswordsNotSaved(host: "example.com")
        #expect(await b.swc.add(fqdn: "example.com", account: "alice", password: "pw").osStatus == -25293)
    }

    // MARK: SWC-6.4 parsing

    @Test("SWC-6.4: host lowercased, port kept: Example.COM:8443 writes example.com port 8443")
    func parsing() async throws {
        let fixture = try Fixture(entitlement: ["webcredentials:example.com:8443"], approved: ["example.com:8443"], answers: [.allow])
        let report = await fixture.swc.add(fqdn: "Example.COM:8443", account: "alice", password: "pw")
        #expect(report.outcome == .added)
        #expect(report.server == "example.com")
        #expect(report.port == 8443)
        let item = try #require(fixture.keychain.items.first)
        #expect(item.server == "example.com")
        #expect(item.port == 8443)
    }

    @Test("SWC-6.4: https://example.com parses to host https and fails the entitlement check")
    func schemeIsAHost() async throws {
        let fixture = try Fixture()
        let report = await fixture.swc.add(fqdn: "https://example.com", account: "alice", password: "pw")
        #expect(report.osStatus == -34018)
        #expect(report.completionError?.message == "https not found in com.apple.developer.associated-domains entitlement")
    }

    @Test("SWC-6.4: user info, path, query and fragment are dropped")
    func dropped() throws {
        let domain = try #require(SWCDomain(parsing: "bob@Example.com:8443/login?x=1#y"))
        #expect(domain.host == "example.com")
        #expect(domain.port == 8443)
        #expect(SWCDomain(parsing: "example.com:0")?.port == nil)
        #expect(SWCDomain(parsing: "example.com:")?.port == nil)
    }

    // MARK: SWC-6.5 entitlement

    @Test(
        "SWC-6.5: entitlement matching with ports and documented wildcards",
        arguments: [
            // entitlement, fqdn, entitled
            ("webcredentials:example.com", "example.com", true),
            ("webcredentials:EXAMPLE.com", "example.com", true),
            ("WebCredentials:example.com", "example.com", true),
            ("webcredentials:example.com", "www.example.com", false),
            ("webcredentials:example.com:8443", "example.com", true),
            ("webcredentials:example.com:8443", "example.com:8443", true),
            ("webcredentials:example.com", "example.com:8443", false),
            ("webcredentials:example.com:8443", "example.com:9443", false),
            ("webcredentials:*.example.com", "www.example.com", true),
            ("webcredentials:*.example.com", "a.b.example.com", true),
            ("webcredentials:*.example.com", "example.com", false),
            ("webcredentials:*.example.com", "badexample.com", false),
            ("applinks:example.com", "example.com", false),
            ("webcredentials:example.com?mode=developer", "example.com", true),
        ])
    func entitlement(entry: String, fqdn: String, entitled: Bool) async throws {
        let fixture = try Fixture(entitlement: [entry], approved: [])
        let report = await fixture.swc.add(fqdn: fqdn, account: "alice", password: "pw")
        // Entitled requests go on to the approval check (nothing is approved here).
        #expect(report.osStatus == (entitled ? -25293 : -34018))
    }

    // MARK: SWC-6.6 site approval

    @Test("SWC-6.6: a site that has not approved the app gives errSecAuthFailed with Apple's message")
    func notApproved() async throws {
        let fixture = try Fixture(approved: [])
        try fixture.keychain.setSiteApproval(.denied, appID: Fixture.appID, domain: "example.com")
        let report = await fixture.swc.add(fqdn: "example.com", account: "alice", password: "pw")
        #expect(report.osStatus == -25293)
        #expect(report.completionError?.code == .siteNotApproved)
        #expect(report.completionError?.message == "\"example.com\" failed to approve \"\(Fixture.appID)\"")
    }

    @Test("SWC-6.6: user approval denied does not block an add")
    func userDeniedDoesNotBlock() async throws {
        let fixture = try Fixture(answers: [.notNow, .allow])
        #expect(await fixture.swc.add(fqdn: "example.com", account: "alice", password: "pw").outcome == .declined)
        #expect(fixture.keychain.approval(appID: Fixture.appID, domain: "example.com")?.user == .denied)
        let second = await fixture.swc.add(fqdn: "example.com", account: "alice", password: "pw")
        #expect(second.outcome == .added)
    }

    @Test("SWC-6.6: the record is found through the matched entry (ported and wildcard entries)")
    func approvalThroughEntry() async throws {
        let ported = try Fixture(entitlement: ["webcredentials:example.com:8443"], approved: ["example.com:8443"], answers: [.allow])
        #expect(await ported.swc.add(fqdn: "example.com:8443", account: "a", password: "pw").outcome == .added)
        let wild = try Fixture(entitlement: ["webcredentials:*.example.com"], approved: ["*.example.com"], answers: [.allow])
        #expect(await wild.swc.add(fqdn: "login.example.com", account: "a", password: "pw").outcome == .added)
        // Approving the plain host does not approve the ported entry's record.
        let wrong = try Fixture(entitlement: ["webcredentials:example.com:8443"], approved: ["example.com"])
        #expect(await wrong.swc.add(fqdn: "example.com:8443", account: "a", password: "pw").osStatus == -25293)
    }

    @Test("SWC-6.3: simulator mode skips entitlement and approval and treats AutoFill as on")
    func simulator() async throws {
        let fixture = try Fixture(
            entitlement: [], approved: [], answers: [.allow], appID: nil,
            settings: SWCDeviceSettings(autoFillEnabled: false), configuration: SWCConfiguration(simulator: true))
        let report = await fixture.swc.add(fqdn: "example.com", account: "alice", password: "pw")
        #expect(report.outcome == .added)
        #expect(report.completionError == nil)
    }

    // MARK: SWC-6.7 negative entry

    @Test("SWC-6.7: a \"Passwords not saved\" entry blocks every account with errSecDuplicateItem")
    func negativeEntry() async throws {
        let fixture = try Fixture(answers: [.allow])
        try fixture.keychain.seedPasswordsNotSaved(host: "example.com")
        for account in ["alice", "bob"] {
            let report = await fixture.swc.add(fqdn: "example.com", account: account, password: "pw")
            #expect(report.osStatus == -25299)
            #expect(report.completionError?.message == "Item already exists for this server")
        }
        #expect(fixture.user.prompts.isEmpty)
        #expect(fixture.keychain.items.count == 1)
    }

    // MARK: SWC-6.9 branches, SWC-6.10 success on decline, SWC-5.1 attributes

    @Test("SWC-6.9 / SWC-5.1: none + password prompts ADD; allow writes Apple's attributes")
    func addWritesAttributes() async throws {
        let fixture = try Fixture(answers: [.allow])
        let report = await fixture.swc.add(fqdn: "Example.com", account: "alice", password: "pw1")
        #expect(report.outcome == .added)
        #expect(report.completionError == nil)
        #expect(fixture.user.kinds == [.add])
        let item = try #require(fixture.keychain.contents.items.first)
        #expect(item.server == "example.com")
        #expect(item.account == "alice")
        #expect(item.port == 0)
        #expect(item.protocolCode == "htps")
        #expect(item.authenticationType == "form")
        #expect(item.accessGroup == "com.apple.cfnetwork")
        #expect(item.synchronizable)
        #expect(item.label == "example.com (alice)")
        #expect(item.comment == "default")
        #expect(item.creator == "swca")
        #expect(item.path == "")
        #expect(item.securityDomain == "")
        #expect(item.isNegative == false)
        #expect(item.secret == Array("pw1".utf8))
    }

    @Test("SWC-6.9: the same password again: no prompt, unchanged, item rewritten")
    func unchanged() async throws {
        let clock = ClockBox()
        let keychain = InMemoryKeychain(clock: { clock.now() })
        try keychain.approve(appID: Fixture.appID, domain: "example.com")
        try keychain.seed(server: "example.com", account: "alice", password: "pw1", comment: "other")
        clock.advance(60)
        let user = SWCPromptRecorder(answers: [])
        let swc = SharedWebCredentials(
            backend: keychain, app: SWCApp(appID: Fixture.appID, associatedDomains: ["webcredentials:example.com"]),
            responder: user)
        let report = await swc.add(fqdn: "example.com", account: "alice", password: "pw1")
        #expect(report.outcome == .unchanged)
        #expect(report.completionError == nil)
        #expect(user.prompts.isEmpty)
        let item = try #require(keychain.items.first)
        #expect(item.comment == "default")
        #expect(item.modificationDate == clock.now())
        #expect(item.creationDate != clock.now())
    }

    @Test(
        "SWC-6.9 / SWC-6.10: UPDATE and DELETE: allow changes, not-now and cancel change nothing; completion nil",
        arguments: [SWCPromptAnswer.allow, .notNow, .cancel])
    func updateAndDelete(answer: SWCPromptAnswer) async throws {
        let fixture = try Fixture(answers: [answer, answer])
        try fixture.keychain.seed(server: "example.com", account: "alice", password: "old")
        let update = await fixture.swc.add(fqdn: "example.com", account: "alice", password: "new")
        #expect(update.completionError == nil)
        #expect(update.outcome == (answer == .allow ? .updated : .declined))
        #expect(fixture.keychain.items.first?.password == (answer == .allow ? "new" : "old"))
        let delete = await fixture.swc.add(fqdn: "example.com", account: "alice", password: nil)
        #expect(delete.completionError == nil)
        #expect(delete.outcome == (answer == .allow ? .deleted : .declined))
        #expect(fixture.keychain.items.count == (answer == .allow ? 0 : 1))
        #expect(fixture.user.kinds == [.update, .delete])
        let userApproval = fixture.keychain.approval(appID: Fixture.appID, domain: "example.com")?.user
        #expect(userApproval == (answer == .notNow ? .denied : .unspecified))
    }

    @Test("SWC-6.10 / SWC-4.3: declining ADD reports success; Not Now records user approval denied, cancel nothing")
    func declineAdd() async throws {
        for (answer, expected) in [(SWCPromptAnswer.notNow, SWCApprovalState.denied), (.cancel, .unspecified)] {
            let fixture = try Fixture(answers: [answer])
            let report = await fixture.swc.add(fqdn: "example.com", account: "alice", password: "pw")
            #expect(report.outcome == .declined)
            #expect(report.completionError == nil)
            #expect(fixture.keychain.items.isEmpty)
            #expect(fixture.keychain.approval(appID: Fixture.appID, domain: "example.com")?.user == expected)
            #expect(fixture.keychain.approval(appID: Fixture.appID, domain: "example.com")?.site == .approved)
        }
    }

    @Test("SWC-6.9: DELETE prompts even with prior user approval; none + nil password is a silent no-op")
    func deleteAlwaysPromptsAndNoop() async throws {
        let fixture = try Fixture(answers: [.allow])
        let noop = await fixture.swc.add(fqdn: "example.com", account: "alice", password: nil)
        #expect(noop.outcome == SWCAddOutcome.none)
        #expect(noop.completionError == nil)
        #expect(fixture.user.prompts.isEmpty)
    }

    @Test("SWC-6.8: without a port, update and delete apply to every match (any port)")
    func allMatches() async throws {
        let fixture = try Fixture(
            entitlement: ["webcredentials:example.com", "webcredentials:example.com:8443"],
            approved: ["example.com", "example.com:8443"], answers: [.allow])
        try fixture.keychain.seed(server: "example.com", account: "alice", password: "a")
        try fixture.keychain.seed(server: "example.com", account: "alice", password: "b", port: 8443)
        try fixture.keychain.seed(server: "example.com", account: "bob", password: "c")
        let report = await fixture.swc.add(fqdn: "example.com", account: "alice", password: nil)
        #expect(report.outcome == .deleted)
        #expect(fixture.keychain.items.map(\.account) == ["bob"])
    }

    @Test("SWC-1.3 / SWC-6.11: add confirmation silent saves a new credential without a prompt")
    func silent() async throws {
        let fixture = try Fixture(configuration: SWCConfiguration(addConfirmation: .silent))
        let report = await fixture.swc.add(fqdn: "example.com", account: "alice", password: "pw")
        #expect(report.outcome == .added)
        #expect(fixture.user.prompts.isEmpty)
    }

    @Test("SWC-6.9: a failed ADD write reaches the completion; found-branch write errors are discarded")
    func writeFailures() async throws {
        let fixture = try Fixture(answers: [.allow, .allow])
        fixture.keychain.failNext(.add, with: SWCredError(.duplicateItem, "clash"))
        let added = await fixture.swc.add(fqdn: "example.com", account: "alice", password: "pw")
        #expect(added.osStatus == -25299)
        try fixture.keychain.seed(server: "example.com", account: "alice", password: "old")
        fixture.keychain.failNext(.update, with: SWCredError(.busy, "lock busy"))
        let updated = await fixture.swc.add(fqdn: "example.com", account: "alice", password: "new")
        #expect(updated.completionError == nil)
        #expect(updated.discardedError?.code == .busy)
    }

    @Test("SWC-2.2 Decision: store failures reach the completion as errSecInternal, never -25293")
    func storeFailureMapping() async throws {
        let fixture = try Fixture()
        fixture.keychain.failNext(.read, with: SWCredError(.wrongKey, "wrong key"))
        let report = await fixture.swc.add(fqdn: "example.com", account: "alice", password: "pw")
        #expect(report.osStatus == -26276)
        #expect(report.completionError?.underlying?.error.code == .wrongKey)
        let locked = try Fixture()
        locked.keychain.failNext(.read, with: SWCredError(.interactionNotAllowed, "no key"))
        #expect(await locked.swc.add(fqdn: "example.com", account: "alice", password: "pw").osStatus == -25308)
    }

    @Test("SWC-6 example: add, add again, delete declined with Not Now")
    func specExample() async throws {
        let fixture = try Fixture(answers: [.allow, .notNow])
        let first = await fixture.swc.add(fqdn: "Example.com", account: "alice", password: "pw1")
        #expect(first.outcome == .added)
        #expect(fixture.keychain.items.first?.label == "example.com (alice)")
        let again = await fixture.swc.add(fqdn: "example.com", account: "alice", password: "pw1")
        #expect(again.outcome == .unchanged)
        let delete = await fixture.swc.add(fqdn: "example.com", account: "alice", password: nil)
        #expect(delete.outcome == .declined)
        #expect(delete.completionError == nil)
        #expect(fixture.keychain.items.count == 1)
        #expect(fixture.keychain.approval(appID: Fixture.appID, domain: "example.com")?.user == .denied)
        #expect(fixture.user.kinds == [.add, .delete])
    }
}

/// A clock the test advances.
final class ClockBox: Sendable {
    private let value = Mutex(Date(timeIntervalSince1970: 1_000_000))
    func now() -> Date { value.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { value.withLock { $0 += seconds } }
}
