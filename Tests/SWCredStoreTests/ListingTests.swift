import Foundation
import SWCredCore
import SWCredSodium
import Testing
@testable import SWCredStore

/// The listing read of `swcred list` (issue 22): items listed from the decrypted payload's bytes,
/// without building them, after the same checks as the full decode.
@Suite("T13/T14: listing reads")
struct ListingTests {
    /// A listed item, copied out of the views.
    struct Entry: Equatable, CustomStringConvertible {
        var server: [UInt8], account: [UInt8], port: UInt16, isNegative: Bool

        init(_ listed: ListedItem) {
            server = Array(listed.server)
            account = Array(listed.account)
            port = listed.port
            isNegative = listed.isNegative
        }

        init(_ item: InternetPasswordItem) {
            server = Array(item.server.utf8)
            account = Array(item.account.utf8)
            port = item.port
            isNegative = item.isNegative
        }

        var description: String {
            let text = { (bytes: [UInt8]) in String(decoding: bytes, as: UTF8.self) }
            return "\(text(server)):\(port) \(text(account)) \(isNegative)"
        }
    }

    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    /// Items with ports, negatives, synchronizable ones, non-ASCII accounts and an empty account.
    static func contents() throws -> StoreContents {
        var contents = StoreContents(creationDate: now)
        try contents.add(item("a.example", "alice"), at: now)
        try contents.add(
            InternetPasswordItem(server: "a.example", account: "bob", port: 8443, secret: Array("x".utf8)), at: now)
        try contents.add(item("xn--tda.example", "ñandú ✓ 日本", password: "pässwörd"), at: now)
        try contents.add(
            InternetPasswordItem(server: "b.example", account: "", port: 443, secret: Array("y".utf8)), at: now)
        try contents.add(item("a.example", "sync", synchronizable: true), at: now)
        try contents.add(InternetPasswordItem.negativeEntry(server: "a.example"), at: now)
        try contents.add(InternetPasswordItem.negativeEntry(server: "c.example", port: 99), at: now)
        try contents.add(
            InternetPasswordItem(server: "a.example", account: "tab\there", port: 1, secret: Array("z".utf8)), at: now)
        try contents.upsertAssociationRecord(
            AssociationRecord(service: .webcredentials, appID: "T.a", host: "a.example"))
        return contents
    }

    static func list(
        _ payload: [UInt8], site: SiteName? = nil, limits: StoreLimits = .default
    ) throws(SWCredError) -> [Entry] {
        var entries: [Entry] = []
        try PayloadCodec.list(payload, payload: 0..<payload.count, limits: limits, site: site) { $0.forEach { entries.append(Entry($0)) } }
        return entries
    }

    @Test("T13: a listing lists what the full decode holds, in store order, with and without a site")
    func listingMatchesFullDecode() throws {
        let contents = try Self.contents()
        let payload = PayloadCodec.encode(contents)
        let full = try PayloadCodec.decode(payload, limits: .default)
        #expect(try Self.list(payload) == full.items.map(Entry.init))
        #expect(try Self.list(payload).count == 8)
        for text in ["a.example", "a.example:8443", "a.example:1", "c.example", "c.example:99", "c.example:98", "xn--tda.example", "none.example"] {
            let site = try SiteName(text)
            let query = ItemQuery(server: site.host, port: site.port, synchronizable: .any)
            #expect(try Self.list(payload, site: site) == full.items(matching: query).map(Entry.init), "\(text)")
        }
        #expect(try Self.list(payload, site: SiteName("a.example")).count == 5)
    }

    @Test("T13: a listing refuses what the full decode refuses (duplicate key, bad UTF-8, trailing bytes) as corruptPayload, and lists nothing")
    func listingRefusesCorruptPayloads() throws {
        var contents = StoreContents(creationDate: Self.now)
        for index in 0..<5 { try contents.add(item("h\(index).example", "a"), at: Self.now) }
        let payload = PayloadCodec.encode(contents)
        #expect(try Self.list(payload).count == 5)

        var duplicate = payload
        let at3 = try #require(ScaleTests.find(Array("h3.example".utf8), in: duplicate))
        duplicate[at3 + 1] = UInt8(ascii: "4")
        var badUTF8 = payload
        let at2 = try #require(ScaleTests.find(Array("h2.example".utf8), in: badUTF8))
        badUTF8[at2 + 12] = 0xFF  // the account "a", after its two length bytes
        let trailing = payload + [0]
        let truncated = Array(payload.dropLast())
        for (name, bytes) in [("duplicate", duplicate), ("UTF-8", badUTF8), ("trailing", trailing), ("truncated", truncated)] {
            #expect(errorCode { _ = try PayloadCodec.decode(bytes, limits: .default) } == .corruptPayload, "\(name)")
            var visited = 0
            let code = errorCode {
                try PayloadCodec.list(bytes, payload: 0..<bytes.count, limits: .default, site: nil) { _ in visited += 1 }
            }
            #expect(code == .corruptPayload, "\(name)")
            #expect(visited == 0, "\(name)")
            #expect(errorCode { _ = try Self.list(bytes, site: SiteName("h0.example")) } == .corruptPayload, "\(name)")
        }
    }

    @Test("T14: a listing applies the limits: the item count and the field sizes at max and max + 1")
    func listingAppliesLimits() throws {
        let contents = try Self.contents()
        let payload = PayloadCodec.encode(contents)
        var items = StoreLimits()
        items.maxItems = 8
        #expect(try Self.list(payload, limits: items).count == 8)
        items.maxItems = 7
        #expect(errorCode { _ = try Self.list(payload, limits: items) } == .limitExceeded)
        var account = StoreLimits()
        account.maxAccountBytes = contents.items.map(\.account.utf8.count).max() ?? 0
        #expect(try Self.list(payload, limits: account).count == 8)
        account.maxAccountBytes -= 1
        #expect(errorCode { _ = try Self.list(payload, limits: account) } == .corruptPayload)
    }

    @Test("T13: a session lists a real store as its snapshot holds it, on the first read and on a later one")
    func sessionListing() throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore()
        let expected = try Self.contents()
        try store.transaction { contents, now in
            for item in expected.items { try contents.add(item, at: now) }
        }
        let session = StoreSession(StoreSession.Configuration(
            path: env.storePath, keyFilePath: env.keyPath, options: env.options(), preset: .test))
        var first: [Entry] = []
        let generation = try session.list(site: nil) { $0.forEach { first.append(Entry($0)) } }
        #expect(first == expected.items.map(Entry.init))
        // The session's store is open now: the second listing reads through it.
        var second: [Entry] = []
        try session.list(site: SiteName("a.example:8443")) { $0.forEach { second.append(Entry($0)) } }
        #expect(second.map(\.account) == [Array("bob".utf8)])
        #expect(try session.read().generation == generation)
    }
}
