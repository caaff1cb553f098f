import Foundation
import SWCredCore
import Testing
@testable import SWCredStore

/// ``ItemListing`` and ``ItemDetails``: what `list` and `show` print of an item, never its secret.
@Suite("Item listings")
struct ItemListingTests {
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("store.md §2.1: a listing names server, account and port (null for 0), never the secret")
    func listing() throws {
        let item = InternetPasswordItem.websitePassword(
            server: "tacos.example", account: "alice", port: 0, secret: Array("hunter2".utf8))
        let text = try Self.json(ItemListing(item))
        #expect(text.contains(#""port":null"#))
        #expect(text.contains(#""server":"tacos.example""#))
        #expect(text.contains(#""negative":false"#))
        #expect(!text.contains("hunter2"))
        let withPort = InternetPasswordItem.websitePassword(
            server: "tacos.example", account: "alice", port: 8443, secret: nil)
        #expect(try Self.json(ItemListing(withPort)).contains(#""port":8443"#))
    }

    @Test("store.md §2.2: a \"Passwords not saved\" entry is listed as negative")
    func negative() throws {
        let entry = InternetPasswordItem.negativeEntry(server: "tacos.example", port: 0)
        #expect(ItemListing(entry).negative)
    }

    @Test("store.md §2.1: the details carry the website password's attributes, never the secret")
    func details() throws {
        let item = InternetPasswordItem.websitePassword(
            server: "tacos.example", account: "alice", port: 0, secret: Array("hunter2".utf8))
        let details = ItemDetails(item)
        #expect(details.protocol == "htps")
        #expect(details.accessGroup == item.accessGroup)
        #expect(details.synchronizable == item.synchronizable)
        #expect(!(try Self.json(details)).contains("hunter2"))
    }
}
