import Foundation
import SWCredCore
import Testing
@testable import SWCredStore

/// The passkeys' sign counts in the store: payload schema 4 (StoreFormat), the upgrade of a store
/// the current release wrote, canonical decoding, and the sign-count rule (`PasskeySignCount`).
@Suite("Passkey sign counts in the store (payload schema 4)")
struct PasskeySignCountStoreTests {
    static func passkey(_ index: Int, count: UInt32 = 0) -> PasskeyItem {
        var item = PasskeyStoreTests.passkey(index)
        item.signCount = count
        return item
    }

    /// The offset of the first passkey's `u32 signCount` in a schema 4 payload of contents holding
    /// only that passkey (no items, no records).
    static func firstCountOffset(_ payload: [UInt8]) -> Int {
        payload.count - 4
    }

    @Test("The sign-count rule: 0 stays 0, N reports N+1, the count stops at 2^32-1; an import replaces only at a count not lower")
    func rule() {
        #expect(PasskeySignCount.next(after: 0) == 0)
        #expect(PasskeySignCount.next(after: 1) == 2)
        #expect(PasskeySignCount.next(after: 41) == 42)
        #expect(PasskeySignCount.next(after: .max) == .max)
        #expect(PasskeySignCount.importReplaces(stored: 5, imported: 5))
        #expect(PasskeySignCount.importReplaces(stored: 5, imported: 9))
        #expect(!PasskeySignCount.importReplaces(stored: 5, imported: 4))
        #expect(PasskeySignCount.importReplaces(stored: 0, imported: 0))
    }

    @Test("A store written by the current release (golden schema 2) opens, upgrades to schema 4 on a count > 0, and round-trips")
    func upgradeOfAnExistingStore() throws {
        let golden = try #require(Golden.fixture(PasskeyStoreTests.fixture))
        let env = TestEnvironment()
        Golden.installKeyFile(env)
        env.write(golden)
        let store = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options())
        let before = try store.snapshot().contents
        #expect(before.schemaVersion == 2)
        #expect(before.passkeys.allSatisfy { $0.signCount == 0 })

        // An assertion at count 0 keeps 0: the store stays schema 2.
        try store.transaction { contents, now in
            let count = try contents.markPasskeyUsed(
                rpID: "example.com", credentialID: PasskeyStoreTests.passkey(1).credentialID, at: now)
            #expect(count == 0)
        }
        #expect(try store.snapshot().contents.schemaVersion == 2)

        // An import at 7 upgrades the store; the next assertion reports 8.
        var imported = PasskeyStoreTests.passkey(1)
        imported.signCount = 7
        let outcome = try store.transaction { contents, now in
            try contents.importPasskey(imported, userName: nil, displayName: nil, at: now)
        }
        #expect(outcome == .updated)
        let upgraded = try store.snapshot().contents
        #expect(upgraded.schemaVersion == 4)
        #expect(upgraded.passkeys.map(\.signCount) == [7, 0])
        #expect(upgraded.passkeys.first?.userName == PasskeyStoreTests.passkey(1).userName)
        let next = try store.transaction { contents, now in
            try contents.markPasskeyUsed(rpID: "example.com", credentialID: imported.credentialID, at: now)
        }
        #expect(next == 8)

        // A fresh reader sees the same contents; the payload re-encodes to the same bytes.
        let reader = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options())
        let reread = try reader.snapshot().contents
        #expect(reread.passkeys.map(\.signCount) == [8, 0])
        #expect(reread.items == before.items)
        let payload = reread.encodedPayload()
        #expect(payload.prefix(2) == [4, 0])
        #expect(try StoreContents(payload: payload).encodedPayload() == payload)
        #expect(try StoreContents(payload: payload) == reread)
    }

    @Test("A stale import never rolls a count back; an equal one with the same key changes nothing")
    func staleImport() throws {
        var contents = StoreContents(creationDate: Date(timeIntervalSince1970: 7))
        let outcome = try contents.importPasskey(Self.passkey(1, count: 10), userName: "a", displayName: "A", at: Date())
        #expect(outcome == .added)
        var stale = Self.passkey(1, count: 9)
        stale.privateKey = Array(repeating: 0x55, count: 32)
        #expect(try contents.importPasskey(stale, userName: "b", displayName: nil, at: Date()) == .unchanged)
        #expect(contents.passkeys.first?.signCount == 10)
        #expect(contents.passkeys.first?.privateKey == Self.passkey(1).privateKey)
        #expect(try contents.importPasskey(Self.passkey(1, count: 10), userName: nil, displayName: nil, at: Date()) == .unchanged)
        #expect(try contents.importPasskey(Self.passkey(1, count: 12), userName: nil, displayName: nil, at: Date()) == .updated)
        #expect(contents.passkeys.first?.signCount == 12)
        #expect(contents.passkeys.first?.userName == "a")
    }

    @Test("Schema 4 is canonical: all counts 0 is refused, the flags byte is 0 or 1, rollback protection rides along")
    func canonical() throws {
        var contents = StoreContents(creationDate: Date(timeIntervalSince1970: 7))
        try contents.addPasskey(Self.passkey(1, count: 3), at: Date(timeIntervalSince1970: 8))
        let v4 = contents.encodedPayload()
        #expect(v4.prefix(2) == [4, 0])
        #expect(v4[13] == 0)
        #expect(Array(v4.suffix(4)) == [3, 0, 0, 0])
        #expect(try StoreContents(payload: v4) == contents)

        // Every count 0: a lower schema holds it, so schema 4 is not canonical.
        var zero = v4
        zero[Self.firstCountOffset(zero)] = 0
        #expect(throws: SWCredError(.corruptPayload, "")) { _ = try StoreContents(payload: zero) }
        // An unknown store flag.
        var flags = v4
        flags[13] = 2
        #expect(throws: SWCredError(.corruptPayload, "")) { _ = try StoreContents(payload: flags) }
        // A schema 3 payload with counts appended is trailing garbage for schema 3.
        var asThree = v4
        asThree[0] = 3
        asThree[13] = 1
        #expect(throws: SWCredError(.corruptPayload, "")) { _ = try StoreContents(payload: asThree) }
        // Schema 4 with rollback protection: flags byte 1, round-trips.
        contents.rollbackProtection = true
        let protected = contents.encodedPayload()
        #expect(protected.prefix(2) == [4, 0])
        #expect(protected[13] == 1)
        let decoded = try StoreContents(payload: protected)
        #expect(decoded.rollbackProtection)
        #expect(decoded.passkeys.first?.signCount == 3)
        #expect(PayloadCodec.rollbackProtection(in: protected, payload: 0..<protected.count))

        // Deleting the counted passkey writes the lower schema again, byte for byte.
        contents.rollbackProtection = false
        try contents.deletePasskey(rpID: "example.com", credentialID: Self.passkey(1).credentialID)
        try contents.addPasskey(Self.passkey(2), at: Date(timeIntervalSince1970: 9))
        #expect(contents.encodedPayload().prefix(2) == [2, 0])
    }

    @Test("Flipped, truncated and random schema-4 payloads never trap and never decode to another encoding")
    func mutations() throws {
        var contents = StoreContents(creationDate: Date(timeIntervalSince1970: 7))
        try contents.add(InternetPasswordItem(server: "a.example", account: "a", secret: [1]), at: Date(timeIntervalSince1970: 8))
        for index in 0..<3 {
            try contents.addPasskey(Self.passkey(index, count: UInt32(index * 1000)), at: Date(timeIntervalSince1970: 9))
        }
        let payload = contents.encodedPayload()
        #expect(payload.prefix(2) == [4, 0])
        checkPayloadMutations(payload, seed: 0x5C0)
    }
}
