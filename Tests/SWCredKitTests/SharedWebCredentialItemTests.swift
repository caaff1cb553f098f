import SWCredCore
@testable import SWCredKit
import SWCredStore
import SWCredTesting
import Testing

/// The Kit works on the store's own item, query and record-key types; what is specific to Shared
/// Web Credentials is built by its factories, once.
@Suite("Shared Web Credentials items are the store's items")
struct SharedWebCredentialItemTests {
    @Test("SWC-5.1: the Kit's add writes the item swcred add writes for the same site (InternetPasswordItem.websitePassword)")
    func addWritesTheWebsitePasswordShape() async throws {
        let fixture = try Fixture(entitlement: ["webcredentials:example.com:8443"], approved: ["example.com:8443"], answers: [.allow])
        let report = await fixture.swc.add(fqdn: "example.com:8443", account: "alice", password: "pw")
        #expect(report.outcome == .added)
        let item = try #require(fixture.keychain.items.first)
        var expected = InternetPasswordItem.websitePassword(
            server: "example.com", account: "alice", port: 8443, secret: Array("pw".utf8))
        expected.creationDate = item.creationDate
        expected.modificationDate = item.modificationDate
        #expect(item == expected)
        #expect(item.specifiedPort == 8443)
        #expect(try InternetPasswordItem.sharedWebCredential(host: "example.com", account: "a", port: nil, password: "p").port == 0)
    }

    @Test("SWC-5.5: a port outside 1-65535 is invalidParameter, never a trap")
    func portOutOfRange() throws {
        #expect(throws: SWCredError.self) {
            try InternetPasswordItem.sharedWebCredential(host: "example.com", account: "a", port: 70_000, password: "p")
        }
        let fixture = try Fixture()
        #expect(throws: SWCredError.self) {
            try fixture.keychain.seed(server: "example.com", account: "a", password: "p", port: 65_536)
        }
        #expect(fixture.keychain.items.isEmpty)
    }

    @Test("SWC-5.4: an SWC query sees only com.apple.cfnetwork, synchronizable, form items; its port matches exactly when given (SWC-6.8)")
    func queryVisibility() {
        let visible = InternetPasswordItem.websitePassword(server: "example.com", account: "alice", port: 443, secret: [1])
        var otherGroup = visible
        otherGroup.accessGroup = "ABCDE12345.group"
        var local = visible
        local.synchronizable = false
        var basic = visible
        basic.authenticationType = "http"
        let query = ItemQuery.sharedWebCredentials(server: "example.com", account: "alice")
        #expect(query.matches(visible))
        #expect(!query.matches(otherGroup) && !query.matches(local) && !query.matches(basic))
        #expect(ItemQuery.sharedWebCredentials(server: "example.com", port: 443).matches(visible))
        #expect(!ItemQuery.sharedWebCredentials(server: "example.com", port: 8443).matches(visible))
        #expect(ItemQuery.allSharedWebCredentials.matches(visible))
    }

    @Test("SWC-6.6 / AD-5.4: an entry's record key is the store's webcredentials key (host, port, wildcard)")
    func recordKeys() throws {
        let entry = try #require(WebCredentialsEntry(parsing: "webcredentials:*.example.com:8443"))
        let key = entry.recordKey(appID: Fixture.appID)
        #expect(key == AssociationRecord.Key(service: .webcredentials, appID: Fixture.appID, host: "example.com", port: 8443, isWildcard: true))
        #expect(AssociationRecord.Key.webCredentials(appID: "A.b", host: "example.com", port: nil).port == nil)
    }
}
