import Foundation
import SWCredStore
import Testing
@testable import SWCredPasskeys

/// ``PasskeyListing``: what `passkey list` prints of a passkey, IDs in base64url, no key material.
@Suite("Passkey listings")
struct PasskeyListingTests {
    @Test("a listing carries the IDs in base64url and never the private key")
    func listing() throws {
        let key: [UInt8] = Array(repeating: 0xAB, count: 32)
        let item = PasskeyItem(
            credentialID: [0xFB, 0xFF, 0x01], rpID: "tacos.example", userHandle: [0x00, 0x01],
            userName: "alice", displayName: "Alice", privateKey: key)
        let listing = PasskeyListing(item)
        #expect(listing.credentialID == "-_8B")
        #expect(listing.userHandle == "AAE")
        #expect(listing.rpID == "tacos.example")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(listing), as: UTF8.self)
        #expect(!text.contains("privateKey"))
        #expect(!text.contains(Base64URL.encode(key)))
    }
}
