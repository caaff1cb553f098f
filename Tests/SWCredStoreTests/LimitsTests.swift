import Foundation
import SWCredCore
import SWCredSodium
import Testing
@testable import SWCredStore

@Suite("T14: every limit at max − 1, max and max + 1, on write and on read")
struct LimitsTests {
    @Test("T14: item count on write — max − 1 and max accepted, max + 1 limitExceeded, store unchanged")
    func itemCountOnWrite() throws {
        let env = TestEnvironment()
        var limits = StoreLimits()
        limits.maxItems = 5
        let store = try env.createKeyFileStore(limits: limits)
        try store.transaction { contents, now in
            for index in 0..<4 { try contents.add(item("h\(index).example", "a"), at: now) }
        }
        try store.transaction { contents, now in try contents.add(item("h4.example", "a"), at: now) }
        #expect(try store.snapshot().contents.items.count == 5)
        let before = env.fileBytes()
        let code = errorCode { try store.transaction { contents, now in try contents.add(item("h5.example", "a"), at: now) } }
        #expect(code == .limitExceeded)
        #expect(env.fileBytes() == before)
    }

    @Test("T14: item and record counts on read — a file above the reader's limit is limitExceeded")
    func countsOnRead() throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore()
        try store.transaction { contents, now in
            for index in 0..<5 { try contents.add(item("h\(index).example", "a"), at: now) }
            for index in 0..<3 {
                try contents.upsertAssociationRecord(AssociationRecord(service: .applinks, appID: "T.a", host: "h\(index).example"))
            }
        }
        for (maxItems, maxRecords, expected) in [
            (4, 3, SWCredError.Code.limitExceeded), (5, 3, nil), (6, 3, nil), (5, 2, .limitExceeded), (5, 4, nil),
        ] as [(Int, Int, SWCredError.Code?)] {
            var limits = StoreLimits()
            limits.maxItems = maxItems
            limits.maxAssociationRecords = maxRecords
            let code = errorCode { _ = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options(limits: limits)) }
            #expect(code == expected, "items \(maxItems), records \(maxRecords)")
        }
    }

    @Test("T14: association record count on write")
    func recordCountOnWrite() throws {
        var limits = StoreLimits()
        limits.maxAssociationRecords = 2
        var contents = StoreContents(creationDate: Date())
        try contents.upsertAssociationRecord(AssociationRecord(service: .applinks, appID: "T.a", host: "a.example"), limits: limits)
        try contents.upsertAssociationRecord(AssociationRecord(service: .applinks, appID: "T.a", host: "b.example"), limits: limits)
        // Replacing an existing record at the limit is fine.
        try contents.upsertAssociationRecord(AssociationRecord(service: .applinks, appID: "T.a", host: "b.example", retryCount: 1), limits: limits)
        #expect(throws: SWCredError(.limitExceeded, "")) {
            try contents.upsertAssociationRecord(AssociationRecord(service: .applinks, appID: "T.a", host: "c.example"), limits: limits)
        }
    }

    @Test(
        "T14: field sizes on input at max − 1, max, max + 1",
        arguments: [
            ("server", 253), ("account", 512), ("secret", 4096), ("label", 1024), ("comment", 1024),
            ("accessGroup", 256), ("path", 2048),
        ]
    )
    func fieldSizesOnInput(field: String, max: Int) throws {
        for (size, accepted) in [(max - 1, true), (max, true), (max + 1, false)] {
            var contents = StoreContents(creationDate: Date())
            let value = String(repeating: "x", count: size)
            var entry = item("example.com", "a")
            switch field {
            case "server": entry.server = value
            case "account": entry.account = value
            case "secret": entry.secret = Array(value.utf8)
            case "label": entry.label = value
            case "comment": entry.comment = value
            case "accessGroup": entry.accessGroup = value
            default: entry.path = value
            }
            let code = errorCode { try contents.add(entry, at: Date()) }
            #expect(code == (accepted ? nil : .invalidParameter), "\(field) at \(size)")
        }
    }

    @Test("T14: a field over its size in a file (written with larger limits) is corruptPayload on read")
    func fieldSizeOnRead() throws {
        let env = TestEnvironment()
        var large = StoreLimits()
        large.maxAccountBytes = 600
        let store = try env.createKeyFileStore(limits: large)
        try store.transaction({ contents, now in
            try contents.add(item("example.com", String(repeating: "a", count: 513)), at: now, limits: large)
        })
        let code = errorCode { _ = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options()) }
        #expect(code == .corruptPayload)
        var exact = StoreLimits()
        exact.maxAccountBytes = 513
        #expect(errorCode { _ = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options(limits: exact)) } == nil)
    }

    @Test("T14: file size — a write that would exceed the limit is refused and the store is unchanged; reads check fstat")
    func fileSize() throws {
        let env = TestEnvironment()
        let store = try env.createKeyFileStore()
        try store.transaction { contents, now in try contents.add(item("a.example", "a", password: String(repeating: "p", count: 4000)), at: now) }
        let size = env.fileBytes().count
        // Exactly the current size is accepted on read; one byte less is not.
        for (limit, expected) in [(size + 1, nil), (size, nil), (size - 1, SWCredError.Code.limitExceeded)] as [(Int, SWCredError.Code?)] {
            var limits = StoreLimits()
            limits.maxFileSize = limit
            let code = errorCode { _ = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options(limits: limits)) }
            #expect(code == expected, "limit \(limit)")
        }
        var limits = StoreLimits()
        limits.maxFileSize = size + 150
        let tight = try KeychainStore.open(at: env.storePath, keySource: env.keySource, options: env.options(limits: limits))
        let before = env.fileBytes()
        let code = errorCode {
            try tight.transaction { contents, now in try contents.add(item("b.example", "b", password: String(repeating: "q", count: 200)), at: now) }
        }
        #expect(code == .limitExceeded)
        #expect(env.fileBytes() == before)
        // A smaller change still fits.
        try tight.transaction { contents, now in try contents.add(item("c.example", "c", password: ""), at: now) }
    }

    @Test("T14: passphrase length 1 and 4,096 accepted; 0 and 4,097 invalidParameter")
    func passphraseLength() throws {
        for (length, accepted) in [(0, false), (1, true), (4095, true), (4096, true), (4097, false)] {
            let env = TestEnvironment()
            let code = errorCode {
                _ = try KeychainStore.create(
                    at: env.storePath, keySource: .passphrase(try SecureBytes(copying: Array(repeating: 0x61, count: length))),
                    preset: .test, options: env.options()
                )
            }
            #expect(code == (accepted ? nil : .invalidParameter), "length \(length)")
            #expect((FileManager.default.fileExists(atPath: env.storePath)) == accepted)
        }
    }

    @Test("T14: SecretReader strips one LF or CRLF, refuses empty and overlong input")
    func passphraseReading() throws {
        func read(_ bytes: [UInt8]) throws -> [UInt8] {
            var fds: [Int32] = [0, 0]
            #expect(pipe(&fds) == 0)
            bytes.withUnsafeBytes { _ = write(fds[1], $0.baseAddress, $0.count) }
            close(fds[1])
            defer { close(fds[0]) }
            let secret = try SecretReader().read(.descriptor(fds[0]), what: "passphrase")
            return secret.withUnsafeBytes { Array($0) }
        }
        #expect(try read(Array("pass\n".utf8)) == Array("pass".utf8))
        #expect(try read(Array("pass\r\n".utf8)) == Array("pass".utf8))
        #expect(try read(Array("pass\n\n".utf8)) == Array("pass\n".utf8))
        #expect(try read(Array("caf\u{E9}".utf8)) == Array("caf\u{E9}".utf8))
        #expect(throws: SWCredError(.invalidParameter, "")) { _ = try read(Array("\n".utf8)) }
        #expect(throws: SWCredError(.invalidParameter, "")) { _ = try read([]) }
        #expect(try read(Array(repeating: 0x61, count: 4096) + [0x0D, 0x0A]).count == 4096)
        #expect(throws: SWCredError(.invalidParameter, "")) { _ = try read(Array(repeating: 0x61, count: 4097)) }
        #expect(throws: SWCredError(.invalidParameter, "")) { _ = try read(Array(repeating: 0x61, count: 5000)) }
    }
}
