import Foundation
import SWCredCore
import Testing
@testable import SWCredStore

@Suite("Store contents: uniqueness, queries, negative entries, association records (spec/store.md §2, §3)")
struct StoreContentsTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000.1234)

    @Test("Adding an item whose nine-attribute key exists fails with duplicateItem (-25299, exit 45)")
    func duplicateAdd() throws {
        var contents = StoreContents(creationDate: t0)
        try contents.add(item("example.com", "alice"), at: t0)
        let error = #expect(throws: SWCredError.self) { try contents.add(item("example.com", "alice", password: "other"), at: t0) }
        #expect(error?.code == .duplicateItem)
        #expect(error?.code.status == -25299)
        // Any one of the nine key attributes differing makes a distinct item.
        var variants: [InternetPasswordItem] = []
        var v = item("example.com", "alice"); v.port = 8443; variants.append(v)
        v = item("example.com", "alice"); v.protocolCode = "http"; variants.append(v)
        v = item("example.com", "alice"); v.authenticationType = "dflt"; variants.append(v)
        v = item("example.com", "alice"); v.path = "/x"; variants.append(v)
        v = item("example.com", "alice"); v.securityDomain = "realm"; variants.append(v)
        v = item("example.com", "alice"); v.accessGroup = "other.group"; variants.append(v)
        variants.append(item("example.com", "alice", synchronizable: true))
        variants.append(item("example.com", "Alice"))
        variants.append(item("Example.com", "alice"))
        for variant in variants { try contents.add(variant, at: t0) }
        #expect(contents.items.count == 10)
        // Label, comment and creator are not part of the key.
        var sameKey = item("example.com", "alice")
        sameKey.label = "another label"
        sameKey.comment = "c"
        sameKey.creator = "abcd"
        #expect(throws: SWCredError(.duplicateItem, "")) { try contents.add(sameKey, at: t0) }
    }

    @Test("Keys compare exact bytes: NFC and NFD spellings are different accounts")
    func exactBytes() throws {
        var contents = StoreContents(creationDate: t0)
        try contents.add(item("example.com", "jos\u{E9}"), at: t0)
        try contents.add(item("example.com", "jose\u{301}"), at: t0)
        #expect(contents.items.count == 2)
        #expect(contents.items(matching: ItemQuery(account: "jos\u{E9}")).count == 1)
    }

    @Test("A query that does not name synchronizable matches only non-synchronizable items; .any matches both")
    func synchronizableRule() throws {
        var contents = StoreContents(creationDate: t0)
        try contents.add(item("example.com", "local"), at: t0)
        try contents.add(item("example.com", "synced", synchronizable: true), at: t0)
        #expect(contents.items(matching: ItemQuery(server: "example.com")).map(\.account) == ["local"])
        #expect(contents.items(matching: ItemQuery(server: "example.com", synchronizable: .yes)).map(\.account) == ["synced"])
        #expect(contents.items(matching: ItemQuery(server: "example.com", synchronizable: .any)).count == 2)
        #expect(contents.items(matching: ItemQuery(server: "other.example", synchronizable: .any)).isEmpty)
    }

    @Test("Negative entries block an add with duplicateItem and are never returned as passwords")
    func negativeEntries() throws {
        var contents = StoreContents(creationDate: t0)
        try contents.add(.negativeEntry(server: "never.example"), at: t0)
        let stored = try #require(contents.items.first)
        #expect(stored.isNegative && stored.secret == nil)
        #expect(stored.account == "Passwords not saved")
        // Apple's add query for the same key finds it.
        var attempt = item("never.example", "Passwords not saved", synchronizable: true)
        attempt.authenticationType = "form"
        #expect(throws: SWCredError(.duplicateItem, "")) { try contents.add(attempt, at: t0) }
        #expect(contents.passwordItems(matching: ItemQuery(server: "never.example", synchronizable: .any)).isEmpty)
        #expect(contents.items(matching: ItemQuery(server: "never.example", synchronizable: .any)).count == 1)
        // A negative entry given a secret is stored without it.
        var withSecret = InternetPasswordItem.negativeEntry(server: "n2.example")
        withSecret.secret = Array("x".utf8)
        try contents.add(withSecret, at: t0)
        #expect(contents.items.last?.secret == nil)
        try contents.delete(matching: ItemQuery(server: "never.example", synchronizable: .any, isNegative: true))
        #expect(contents.items.count == 1)
    }

    @Test("Update changes every match, keeps creation dates, and refuses collisions and empty matches")
    func updates() throws {
        var contents = StoreContents(creationDate: t0)
        try contents.add(item("a.example", "u1"), at: t0)
        try contents.add(item("a.example", "u2"), at: t0)
        try contents.add(item("b.example", "u1"), at: t0)
        let t1 = t0.addingTimeInterval(60)
        #expect(try contents.update(matching: ItemQuery(server: "a.example"), with: ItemUpdate(secret: Array("new".utf8)), at: t1) == 2)
        let updated = contents.items(matching: ItemQuery(server: "a.example"))
        #expect(updated.allSatisfy { $0.password == "new" && $0.creationDate == t0.roundedToMilliseconds })
        #expect(updated.allSatisfy { $0.modificationDate == t1.roundedToMilliseconds })
        let before = contents
        // u1@a → b.example collides with u1@b.
        #expect(throws: SWCredError(.duplicateItem, "")) {
            try contents.update(matching: ItemQuery(server: "a.example", account: "u1"), with: ItemUpdate(server: "b.example"), at: t1)
        }
        // Two matches renamed to one account collide with each other.
        #expect(throws: SWCredError(.duplicateItem, "")) {
            try contents.update(matching: ItemQuery(server: "a.example"), with: ItemUpdate(account: "same"), at: t1)
        }
        #expect(throws: SWCredError(.itemNotFound, "")) {
            try contents.update(matching: ItemQuery(server: "zzz.example"), with: ItemUpdate(label: "x"), at: t1)
        }
        #expect(throws: SWCredError(.invalidParameter, "")) {
            try contents.update(matching: ItemQuery(server: "a.example"), with: ItemUpdate(server: ""), at: t1)
        }
        #expect(contents == before)
        // Renaming to its own key is fine; the index follows.
        try contents.update(matching: ItemQuery(server: "b.example"), with: ItemUpdate(server: "c.example"), at: t1)
        #expect(contents.item(forKey: item("c.example", "u1").key) != nil)
        #expect(contents.item(forKey: item("b.example", "u1").key) == nil)
        try contents.add(item("b.example", "u1"), at: t1)
    }

    @Test("Delete removes every match, as SecItemDelete does; no match is itemNotFound (-25300, exit 44)")
    func deletes() throws {
        var contents = StoreContents(creationDate: t0)
        for account in ["a", "b", "c"] { try contents.add(item("d.example", account), at: t0) }
        try contents.add(item("e.example", "a"), at: t0)
        #expect(try contents.delete(matching: ItemQuery(server: "d.example")).count == 3)
        #expect(contents.items.map(\.server) == ["e.example"])
        let error = #expect(throws: SWCredError.self) { try contents.delete(matching: ItemQuery(server: "d.example")) }
        #expect(error?.code == .itemNotFound)
        #expect(error?.code.status == -25300)
        // The index is rebuilt: the deleted keys can be added again.
        try contents.add(item("d.example", "a"), at: t0)
    }

    @Test("Malformed attributes are invalidParameter (-50, exit 50)")
    func validation() throws {
        var contents = StoreContents(creationDate: t0)
        var bad = item("", "a")
        #expect(throws: SWCredError(.invalidParameter, "")) { try contents.add(bad, at: t0) }
        bad = item("x.example", "a"); bad.protocolCode = "https"
        #expect(throws: SWCredError(.invalidParameter, "")) { try contents.add(bad, at: t0) }
        bad = item("x.example", "a"); bad.authenticationType = "fo\u{E9}m"
        #expect(throws: SWCredError(.invalidParameter, "")) { try contents.add(bad, at: t0) }
        bad = item("x.example", "a"); bad.creator = "abc"
        #expect(throws: SWCredError(.invalidParameter, "")) { try contents.add(bad, at: t0) }
        #expect(contents.items.isEmpty)
    }

    @Test("Association records: upsert by key, exact comparison, remove, distant dates")
    func associationRecords() throws {
        var contents = StoreContents(creationDate: t0)
        let record = AssociationRecord(service: .webcredentials, appID: "TEAM.app", host: "example.com", nextCheck: .distantFuture)
        #expect(try contents.upsertAssociationRecord(record) == nil)
        var changed = record
        changed.siteApproval = .approved
        #expect(try contents.upsertAssociationRecord(changed)?.siteApproval == .unspecified)
        #expect(contents.associationRecords.count == 1)
        try contents.upsertAssociationRecord(AssociationRecord(service: .webcredentials, appID: "TEAM.app", host: "example.com", port: 8443))
        try contents.upsertAssociationRecord(AssociationRecord(service: .webcredentials, appID: "TEAM.app", host: "example.com", isWildcard: true))
        try contents.upsertAssociationRecord(AssociationRecord(service: .applinks, appID: "TEAM.app", host: "example.com"))
        #expect(contents.associationRecords.count == 4)
        #expect(contents.associationRecords(service: .webcredentials).count == 3)
        #expect(contents.associationRecord(forKey: record.key)?.siteApproval == .approved)
        #expect(contents.associationRecord(forKey: record.key)?.nextCheck == .distantFuture)
        #expect(throws: SWCredError(.invalidParameter, "")) {
            try contents.upsertAssociationRecord(AssociationRecord(service: .applinks, appID: "T.a", host: "h", port: 0))
        }
        try contents.removeAssociationRecord(forKey: record.key)
        #expect(contents.associationRecord(forKey: record.key) == nil)
        #expect(throws: SWCredError(.itemNotFound, "")) { try contents.removeAssociationRecord(forKey: record.key) }
        #expect(DeviceSettings() == DeviceSettings(autoFillEnabled: true, developerMode: false, managedDevice: false))
    }

    @Test("Items print redacted secrets in description, debugDescription and dump")
    func redaction() {
        let secretItem = item("example.com", "alice", password: "sentinel-7f3a")
        #expect(!String(describing: secretItem).contains("sentinel-7f3a"))
        #expect(!String(reflecting: secretItem).contains("sentinel-7f3a"))
        var dumped = ""
        dump(secretItem, to: &dumped)
        #expect(!dumped.contains("sentinel-7f3a"))
        #expect(dumped.contains("<redacted>"))
        #expect(!String(describing: ItemUpdate(secret: Array("sentinel-7f3a".utf8))).contains("sentinel"))
    }
}

@Suite("Dates at millisecond precision")
struct DatePrecisionTests {
    @Test("Dates round to milliseconds, clamp to the format's range, and survive encoding unchanged")
    func dates() throws {
        for date in [
            Date(timeIntervalSince1970: 1_700_000_000.12345), Date(timeIntervalSince1970: -1.0005), .distantPast, .distantFuture,
            Date(timeIntervalSince1970: 1e300), Date(timeIntervalSince1970: -1e300), Date(timeIntervalSince1970: .nan),
        ] {
            var contents = StoreContents(creationDate: date)
            try contents.add(item("a.example", "a"), at: date)
            let decoded = try PayloadCodec.decode(PayloadCodec.encode(contents), limits: .default)
            #expect(decoded == contents, "\(date)")
            #expect(date.roundedToMilliseconds.roundedToMilliseconds == date.roundedToMilliseconds)
        }
        #expect(Date.distantFuture.roundedToMilliseconds == .distantFuture)
        #expect(Date.distantPast.roundedToMilliseconds == .distantPast)
    }
}
