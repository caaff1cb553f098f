import Foundation
import SWCredCore
import SWCredSodium
import Testing
@testable import SWCredStore

/// The two shortcuts of issue 13: adding one item without building the others
/// (``KeychainStore/addIfAbsent(_:refusingServersNeverSaved:)``), and the site index behind
/// queries that name a server and an account. Each is checked against the general path it replaces.
@Suite("Store: one-item add and the site index agree with the general paths")
struct AppendAndIndexTests {
    /// Contents with items of several servers, a negative entry, association records and (when
    /// asked) passkeys: every section of the payload.
    static func mixedContents(passkeys: Bool) throws -> StoreContents {
        var contents = StoreContents(creationDate: Date(timeIntervalSince1970: 1_700_000_000))
        let now = Date(timeIntervalSince1970: 1_700_000_100)
        for index in 0..<60 {
            try contents.add(item("h\(index % 7).example", "u\(index)", password: "pw\(index)", synchronizable: index % 3 == 0), at: now)
        }
        try contents.add(InternetPasswordItem.negativeEntry(server: "never.example"), at: now)
        try contents.upsertAssociationRecord(AssociationRecord(service: .webcredentials, appID: "T.a", host: "h1.example"))
        if passkeys { _ = try contents.addPasskey(PasskeyStoreTests.passkey(1), at: now) }
        return contents
    }

    @Test("Store §6 step 3: the payload with one item inserted is byte for byte the encoding of the changed contents (schema 1 and 2)")
    func appendIsTheCanonicalEncoding() throws {
        for withPasskeys in [false, true] {
            let before = try Self.mixedContents(passkeys: withPasskeys)
            var added = item("new.example", "someone", password: "secret")
            added.creationDate = Date(timeIntervalSince1970: 1_700_000_200)
            added.modificationDate = added.creationDate
            var after = before
            try after.add(added, at: added.creationDate)
            let payload = PayloadCodec.encode(before)
            let scan = try #require(try PayloadCodec.scanForAppend(payload, limits: .default, item: added))
            #expect(scan.itemCount == before.items.count)
            #expect(!scan.keyExists && !scan.negativeEntryExists)
            // In place, inside a buffer with bytes before the payload and room (not zeroed) after it.
            var entry = ByteWriter()
            PayloadCodec.encode(added, into: &entry)
            let prefix = [UInt8](repeating: 0xEE, count: 7)
            var buffer = prefix + payload + [UInt8](repeating: 0xAB, count: 16 + entry.bytes.count)
            let range = prefix.count..<(prefix.count + payload.count)
            let inBuffer = try #require(try PayloadCodec.scanForAppend(buffer, payload: range, limits: .default, item: added))
            #expect(inBuffer.itemsEnd == scan.itemsEnd + prefix.count)
            try PayloadCodec.insert(entry.bytes, into: &buffer, payload: range, scan: inBuffer)
            #expect(Array(buffer[prefix.count..<(prefix.count + payload.count + entry.bytes.count)]) == PayloadCodec.encode(after))
            #expect(Array(buffer[..<prefix.count]) == prefix)
            // No room: refused, nothing changed.
            var tight = prefix + payload
            #expect(throws: SWCredError.self) {
                try PayloadCodec.insert(entry.bytes, into: &tight, payload: range, scan: inBuffer)
            }
            #expect(tight == prefix + payload)
        }
    }

    @Test("The scan finds an existing key (exact bytes, sync flag included) and a negative entry for the server")
    func scanFindsKeysAndNegativeEntries() throws {
        let contents = try Self.mixedContents(passkeys: false)
        let payload = PayloadCodec.encode(contents)
        func scan(_ candidate: InternetPasswordItem) throws -> PayloadCodec.AppendScan {
            try #require(try PayloadCodec.scanForAppend(payload, limits: .default, item: candidate))
        }
        #expect(try scan(item("h3.example", "u3", synchronizable: true)).keyExists)
        #expect(try !scan(item("h3.example", "u3", synchronizable: false)).keyExists)  // u3 is synchronizable
        #expect(try !scan(item("H3.example", "u3", synchronizable: true)).keyExists)  // exact bytes
        // The key is found whatever the other attributes hold, even over their limits (the add
        // then reports the duplicate, as it did before validating).
        var oversized = item("h3.example", "u3", synchronizable: true)
        oversized.label = String(repeating: "l", count: StoreLimits.default.maxLabelBytes + 1)
        oversized.secret = Array(repeating: 0x61, count: StoreLimits.default.maxSecretBytes + 1)
        #expect(try scan(oversized).keyExists)
        #expect(try scan(item("never.example", "anyone")).negativeEntryExists)
        #expect(try !scan(item("h3.example", "anyone")).negativeEntryExists)
    }

    @Test("Store §3: the raw key hash covers exactly the nine key attributes (two runs of the encoding), and the seen-set reports repeats")
    func keyHashCoversTheKey() throws {
        func hash(_ value: InternetPasswordItem) throws -> Int {
            var w = ByteWriter()
            PayloadCodec.encode(value, into: &w)
            var r = ByteReader(w.bytes, errorCode: .corruptPayload)
            return try PayloadCodec.RawItem(&r, limits: .default).keyHash(in: w.bytes)
        }
        let base = InternetPasswordItem(
            server: "a.example", account: "u", port: 443, path: "/p", securityDomain: "d", label: "l", comment: "c",
            creator: "swcr", accessGroup: "T.g", secret: Array("pw".utf8)
        )
        let baseHash = try hash(base)
        // Each key attribute changed alone gives another hash: a hash that skipped one would make
        // the scan call two distinct items the same key (and miss a real duplicate the other way).
        var keyChanges: [(String, (inout InternetPasswordItem) -> Void)] = [
            ("server", { $0.server = "b.example" }), ("account", { $0.account = "v" }), ("port", { $0.port = 444 }),
            ("protocol", { $0.protocolCode = "http" }), ("authenticationType", { $0.authenticationType = "dflt" }),
            ("path", { $0.path = "/q" }), ("securityDomain", { $0.securityDomain = "e" }),
            ("accessGroup", { $0.accessGroup = "T.h" }), ("synchronizable", { $0.synchronizable = true }),
        ]
        // Moving a byte from one field to the next keeps the bytes but not the key.
        keyChanges.append(("server/account boundary", { $0.server = "a.exampleu"; $0.account = "" }))
        for (name, change) in keyChanges {
            var changed = base
            change(&changed)
            #expect(try hash(changed) != baseHash, "changing \(name) must change the key hash")
        }
        let otherChanges: [(String, (inout InternetPasswordItem) -> Void)] = [
            ("label", { $0.label = "m" }), ("comment", { $0.comment = "n" }), ("creator", { $0.creator = "abcd" }),
            ("secret", { $0.secret = Array("other".utf8) }),
            ("dates", { $0.creationDate = Date(timeIntervalSince1970: 5); $0.modificationDate = $0.creationDate }),
        ]
        for (name, change) in otherChanges {
            var changed = base
            change(&changed)
            #expect(try hash(changed) == baseHash, "\(name) is not part of the key")
        }

        var seen = KeyHashSet(capacity: 3)
        let firstInserts = [seen.insert(baseHash), seen.insert(0), seen.insert(-1)]
        #expect(firstInserts == [true, true, true])
        let repeats = [seen.insert(baseHash), seen.insert(-1), seen.insert(1)]
        #expect(repeats == [false, false, false])  // 0 is kept as 1: a repeat reported, which the full decode settles
        var grown: [Bool] = []
        for value in 2..<40 { grown.append(seen.insert(value << 20)) }  // past its first size
        #expect(grown.allSatisfy { $0 })
        let repeatAfterGrowth = seen.insert(39 << 20)
        #expect(!repeatAfterGrowth)
    }

    @Test("Store §3: a repeated key hash is found among many (one set up to 16,384, then split by top byte), and none is reported when there is none")
    func keyHashRepeats() {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 2, 1_000, 16_384, 16_385, 100_000] {
            let distinct = Set((0..<count).map { _ in Int.random(in: Int.min...Int.max, using: &generator) })
            var none = KeyHashes(capacity: distinct.count)
            for hash in distinct { none.append(hash) }
            #expect(!none.containsRepeat(), "\(count) distinct hashes")
            guard let repeated = distinct.randomElement() else { continue }
            // The repeat goes last, first, or in the middle of the others.
            for position in [distinct.count, 0, distinct.count / 2] {
                var hashes = Array(distinct)
                hashes.insert(repeated, at: position)
                var some = KeyHashes(capacity: hashes.count)
                for hash in hashes { some.append(hash) }
                #expect(some.containsRepeat(), "\(count) hashes, the repeat at \(position)")
            }
        }
    }

    @Test("The scan checks the whole payload as decode does: a flipped byte anywhere is corruptPayload")
    func scanChecksEverything() throws {
        let payload = PayloadCodec.encode(try Self.mixedContents(passkeys: true))
        var refusedByBoth = 0
        for offset in stride(from: 0, to: payload.count, by: 7) {
            var damaged = payload
            damaged[offset] ^= 0xFF
            let decodeError = errorCode { _ = try PayloadCodec.decode(damaged, limits: .default) }
            let scanError = errorCode { _ = try PayloadCodec.scanForAppend(damaged, limits: .default, item: item("n.example", "u")) }
            #expect(scanError == decodeError, "offset \(offset)")
            if decodeError != nil { refusedByBoth += 1 }
        }
        #expect(refusedByBoth > 20)
    }

    @Test("addIfAbsent: the added item reads back as the general add makes it, one generation later")
    func addIfAbsentAddsDurably() throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore()
        try store.transaction { contents, now in
            for index in 0..<50 { try contents.add(item("h\(index % 5).example", "u\(index)"), at: now) }
        }
        let generation = try store.snapshot().generation
        let outcome = try store.addIfAbsent(item("h2.example", "new", password: "pw-new"), refusingServersNeverSaved: true)
        #expect(outcome == .added)
        let snapshot = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options()).snapshot()
        #expect(snapshot.generation == generation + 1)
        #expect(snapshot.contents.items.count == 51)
        let stored = try #require(snapshot.contents.items.last)
        #expect(stored.server == "h2.example" && stored.account == "new" && stored.secret == Array("pw-new".utf8))
        #expect(stored.creationDate == env.clock.now().roundedToMilliseconds)
        #expect(env.mode(of: env.storePath) & 0o777 == 0o600)
    }

    @Test("addIfAbsent: an existing key, a 'Passwords not saved' entry, an invalid item or the item limit write nothing")
    func addIfAbsentRefusals() throws {
        let env = TestEnvironment()
        var limits = StoreLimits()
        limits.maxItems = 4
        let store = try env.createKeyFileStore(limits: limits)
        try store.transaction { contents, now in
            try contents.add(item("a.example", "u"), at: now)
            try contents.add(InternetPasswordItem.negativeEntry(server: "never.example"), at: now)
        }
        let before = env.fileBytes()
        #expect(try store.addIfAbsent(item("a.example", "u", password: "other"), refusingServersNeverSaved: true) == .keyExists)
        #expect(try store.addIfAbsent(item("never.example", "u"), refusingServersNeverSaved: true) == .serverNeverSaved)
        #expect(env.fileBytes() == before)
        // Without the refusal the negative entry does not stop a password of another account.
        #expect(try store.addIfAbsent(item("never.example", "u"), refusingServersNeverSaved: false) == .added)
        let afterAdd = env.fileBytes()
        #expect(errorCode { _ = try store.addIfAbsent(item("", "u"), refusingServersNeverSaved: true) } == .invalidParameter)
        #expect(try store.addIfAbsent(item("b.example", "u"), refusingServersNeverSaved: true) == .added)
        let full = env.fileBytes()
        #expect(full != afterAdd)
        #expect(errorCode { _ = try store.addIfAbsent(item("c.example", "u"), refusingServersNeverSaved: true) } == .limitExceeded)
        #expect(env.fileBytes() == full)
    }

    @Test("addIfAbsent on a tampered or truncated file: corruptPayload, file untouched")
    func addIfAbsentOnDamage() throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore()
        try store.transaction { contents, now in try contents.add(item("a.example", "u"), at: now) }
        var bytes = env.fileBytes()
        bytes[bytes.count - 20] ^= 0x01
        env.write(bytes)
        #expect(errorCode { _ = try store.addIfAbsent(item("b.example", "u"), refusingServersNeverSaved: true) } == .corruptPayload)
        #expect(env.fileBytes() == bytes)
        env.write(Array(bytes.dropLast(7)))
        #expect(errorCode { _ = try store.addIfAbsent(item("b.example", "u"), refusingServersNeverSaved: true) } != nil)
        #expect(env.fileBytes() == Array(bytes.dropLast(7)))
    }

    @Test("Site index: queries by server and account return what a scan of every item returns, through adds, updates and deletes")
    func serverIndexAgreesWithScan() throws {
        var contents = StoreContents(creationDate: Date(timeIntervalSince1970: 0))
        var generator = SystemRandomNumberGenerator()
        let servers = (0..<9).map { "s\($0).example" }
        func scan(_ query: ItemQuery) -> [InternetPasswordItem] { contents.items.filter(query.matches) }
        for step in 0..<600 {
            let server = servers.randomElement(using: &generator) ?? "s0.example"
            let account = "u\(Int.random(in: 0..<40, using: &generator))"
            let now = Date(timeIntervalSince1970: Double(step))
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<6: try? contents.add(item(server, account), at: now)
            case 6, 7:
                // Moves items to another server or account (the index must follow the change).
                let target = servers.randomElement(using: &generator) ?? "s1.example"
                let update = Bool.random(using: &generator) ? ItemUpdate(server: target) : ItemUpdate(account: "u\(step % 40)")
                _ = try? contents.update(matching: ItemQuery(server: server, account: account), with: update, at: now)
            default: _ = try? contents.delete(matching: ItemQuery(server: server, account: account))
            }
            for query in [ItemQuery(server: server, synchronizable: .any), ItemQuery(server: server, account: account)] {
                #expect(contents.items(matching: query) == scan(query), "step \(step)")
            }
        }
        #expect(contents.items.count > 50)
    }
}
