import Foundation
import SWCredCore
import SWCredSodium
import Testing
@testable import SWCredStore

/// The store at real size (issue 13): the default limits admit 100,000 items and a 64 MiB file,
/// and a read that builds only some items verifies exactly as much as a full read.
@Suite("T14: default limits at 100,000 items and 64 MiB; selective reads")
struct ScaleTests {
    @Test("T14: the defaults are 100,000 items and a 64 MiB file (the format-1 ceiling)")
    func defaults() {
        #expect(StoreLimits.default.maxItems == 100_000)
        #expect(StoreLimits.default.maxFileSize == 64 << 20)
        #expect(StoreLimits.default.maxFileSize == StoreLimits.fileSizeCeiling)
    }

    @Test("T14: default item limit on write and read — 100,000 items work, the 100,001st is limitExceeded, store unchanged")
    func defaultItemLimit() throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore()
        let max = StoreLimits.default.maxItems
        try store.transaction { contents, now in
            for index in 0..<(max - 1) { try contents.add(item("h\(index % 97).example", "u\(index)"), at: now) }
        }
        // max − 1 → max through a reopened store with the default limits.
        let reopened = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options())
        try reopened.transaction { contents, now in try contents.add(item("last.example", "u"), at: now) }
        #expect(try reopened.snapshot().contents.items.count == max)
        let before = env.fileBytes()
        #expect(before.count < StoreLimits.default.maxFileSize)
        let code = errorCode { try reopened.transaction { contents, now in try contents.add(item("over.example", "u"), at: now) } }
        #expect(code == .limitExceeded)
        #expect(env.fileBytes() == before)
        // On read: a file holding max + 1 items (written with a raised limit) is refused by the defaults.
        var raised = StoreLimits()
        raised.maxItems = max + 1
        let large = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options(limits: raised))
        try large.transaction { contents, now in try contents.add(item("over.example", "u"), at: now) }
        #expect(errorCode { _ = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options()) } == .limitExceeded)
        #expect(errorCode { _ = try reopened.snapshot(selection: ReadSelection(items: ItemQuery(server: "last.example"))) } == .limitExceeded)
    }

    @Test("T14: default file-size limit on read — 64 MiB passes the fstat check, 64 MiB + 1 is limitExceeded before reading")
    func defaultFileSizeOnRead() throws {
        let env = TestEnvironment()
        _ = try env.createKeyFileStore()
        let original = env.fileBytes()
        for (size, sizeRefused) in [(StoreLimits.fileSizeCeiling, false), (StoreLimits.fileSizeCeiling + 1, true)] {
            env.write(original)
            #expect(truncate(env.storePath, off_t(size)) == 0)
            let code = errorCode { _ = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options()) }
            // Within the limit the file is read and its header finds the length wrong.
            #expect(code == (sizeRefused ? .limitExceeded : .corruptPayload), "size \(size)")
        }
    }

    @Test("A selective read builds only the matching items, and the secrets only when asked")
    func selectiveRead() throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore()
        try store.transaction { contents, now in
            for index in 0..<200 {
                try contents.add(item("h\(index % 10).example", "u\(index)", password: "pw\(index)"), at: now)
            }
            try contents.add(InternetPasswordItem.negativeEntry(server: "h3.example"), at: now)
            try contents.upsertAssociationRecord(AssociationRecord(service: .webcredentials, appID: "T.a", host: "h3.example"))
        }
        let full = try store.snapshot().contents
        let query = ItemQuery(server: "h3.example", synchronizable: .any)
        let selected = try store.snapshot(selection: ReadSelection(items: query))
        #expect(selected.selection.items == query)
        #expect(selected.contents.items == full.items(matching: query))
        #expect(selected.contents.items.count == 21)
        #expect(selected.contents.associationRecords == full.associationRecords)
        #expect(selected.contents.settings == full.settings)
        let one = ItemQuery(server: "h3.example", account: "u13", synchronizable: .any)
        let shown = try store.snapshot(selection: ReadSelection(items: one)).contents.items
        #expect(shown.count == 1)
        #expect(shown.first?.secret == Array("pw13".utf8))
        let listed = try store.snapshot(selection: ReadSelection(items: nil, secrets: false)).contents.items
        #expect(listed.count == full.items.count)
        #expect(listed.allSatisfy { $0.secret == nil })
        #expect(listed.map(\.key) == full.items.map(\.key))
        let (_, opened) = try KeychainStore.openAndRead(
            at: env.storePath, keySource: env.keySource, options: env.options(), selection: ReadSelection(items: one)
        )
        #expect(opened.contents.items == shown)
        #expect(ReadSelection.everything.isEverything)
        #expect(!ReadSelection(items: one).isEverything)
    }

    @Test("T13: a selective decode checks the whole payload — a bad field or a duplicate key outside the selection is corruptPayload")
    func selectiveDecodeValidatesEverything() throws {
        var contents = StoreContents(creationDate: Date(timeIntervalSince1970: 1_750_000_000))
        for index in 0..<5 { try contents.add(item("h\(index).example", "a"), at: Date(timeIntervalSince1970: 1_750_000_000)) }
        let payload = PayloadCodec.encode(contents)
        let selection = ReadSelection(items: ItemQuery(server: "h0.example"))
        #expect(try PayloadCodec.decode(payload, limits: .default, selection: selection).items.count == 1)

        // Invalid UTF-8 in the last item's account (not selected).
        var badUTF8 = payload
        let account = Array("a".utf8)
        let lastServer = Array("h4.example".utf8)
        guard let at = Self.find(lastServer + [UInt8(account.count), 0] + account, in: badUTF8) else {
            Issue.record("layout changed")
            return
        }
        badUTF8[at + lastServer.count + 2] = 0xFF
        #expect(errorCode { _ = try PayloadCodec.decode(badUTF8, limits: .default, selection: selection) } == .corruptPayload)
        #expect(errorCode { _ = try PayloadCodec.decode(badUTF8, limits: .default) } == .corruptPayload)

        // Two items with one key (the fourth renamed to the fifth's server), neither selected.
        var duplicate = payload
        let third = Array("h3.example".utf8)
        guard let at3 = Self.find(third, in: duplicate) else {
            Issue.record("layout changed")
            return
        }
        duplicate[at3 + 1] = UInt8(ascii: "4")
        #expect(errorCode { _ = try PayloadCodec.decode(duplicate, limits: .default, selection: selection) } == .corruptPayload)
        #expect(errorCode { _ = try PayloadCodec.decode(duplicate, limits: .default) } == .corruptPayload)
    }

    /// A listing read (every item, no secrets) builds no item index (issue 22: a quarter of
    /// `swcred list` at 10,000 items); its duplicate-key check runs on the raw keys' hashes.
    @Test("T13: a listing decode refuses a duplicate key as corruptPayload and its contents still look up and change")
    func listingDecode() throws {
        var contents = StoreContents(creationDate: Date(timeIntervalSince1970: 1_750_000_000))
        let now = Date(timeIntervalSince1970: 1_750_000_000)
        for index in 0..<5 { try contents.add(item("h\(index).example", "a"), at: now) }
        let payload = PayloadCodec.encode(contents)
        let listing = ReadSelection(items: nil, secrets: false)

        var duplicate = payload
        guard let at3 = Self.find(Array("h3.example".utf8), in: duplicate) else {
            Issue.record("layout changed")
            return
        }
        duplicate[at3 + 1] = UInt8(ascii: "4")
        #expect(errorCode { _ = try PayloadCodec.decode(duplicate, limits: .default, selection: listing) } == .corruptPayload)

        var listed = try PayloadCodec.decode(payload, limits: .default, selection: listing)
        #expect(listed.items.map(\.server) == (0..<5).map { "h\($0).example" })
        #expect(listed.items.allSatisfy { $0.secret == nil })
        // Lookups without the index scan; a change builds it first and still refuses duplicates.
        #expect(listed.item(forKey: item("h2.example", "a").key)?.server == "h2.example")
        #expect(listed.item(forKey: item("h9.example", "a").key) == nil)
        #expect(listed.items(matching: ItemQuery(server: "h1.example", account: "a")).count == 1)
        #expect(errorCode { try listed.add(item("h1.example", "a"), at: now) } == .duplicateItem)
        try listed.add(item("h5.example", "a"), at: now)
        #expect(listed.items(matching: ItemQuery(server: "h5.example", account: "a")).count == 1)
        #expect(try listed.update(matching: ItemQuery(server: "h0.example", account: "a"), with: ItemUpdate(account: "b"), at: now) == 1)
        #expect(listed.item(forKey: item("h0.example", "b").key) != nil)
        #expect(
            errorCode { try listed.update(matching: ItemQuery(server: "h0.example", account: "b"), with: ItemUpdate(server: "h1.example", account: "a"), at: now) }
                == .duplicateItem)
    }

    @Test("T13: full and selective decodes agree item for item on every round-trip fixture shape")
    func decodesAgree() throws {
        var contents = StoreContents(creationDate: Date(timeIntervalSince1970: 1_750_000_000))
        let now = Date(timeIntervalSince1970: 1_750_000_123.456)
        try contents.add(item("a.example", "ü-nicode ✓", password: "pässwörd"), at: now)
        try contents.add(InternetPasswordItem(server: "b.example", account: "", port: 8443, protocolCode: "", path: "/p", securityDomain: "realm"), at: now)
        try contents.add(InternetPasswordItem.negativeEntry(server: "c.example"), at: now)
        let payload = PayloadCodec.encode(contents)
        let full = try PayloadCodec.decode(payload, limits: .default)
        #expect(full == contents)
        for query in [ItemQuery(server: "a.example"), ItemQuery(server: "b.example", port: 8443), ItemQuery(account: "", synchronizable: .any)] {
            let selected = try PayloadCodec.decode(payload, limits: .default, selection: ReadSelection(items: query))
            #expect(selected.items == full.items(matching: query))
        }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
