import Foundation
import Testing

/// `swcred batch`: JSON-lines requests on stdin, JSON-lines results, one store unlock.
@Suite("swcred batch")
struct BatchTests {
    static let app = ["--entitlements", CLI.fixtures.appendingPathComponent("apps/TacoShop.entitlements").path,
                      "--aasa-dir", CLI.fixtures.appendingPathComponent("sites").path]

    static func lines(_ result: CLI.Result) throws -> [[String: Any]] {
        try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test("each line runs as the app with its own user; ids echoed; exit codes per line; schema valid")
    func mixedBatch() async throws {
        let home = try CLI.temporaryDirectory("swcred-batch")
        defer { try? FileManager.default.removeItem(at: home) }
        let seeded = try await CLI.run(["add", "tacos.example", "alice", "--password-stdin"], stdin: "pw-alice\n", home: home)
        #expect(seeded.status == 0, "\(seeded.stderr)")

        let input = [
            #"{"id": 1, "op": "request", "domain": "tacos.example"}"#,
            #"{"id": "two", "op": "add", "domain": "tacos.example", "account": "bob", "password": "pw-bob"}"#,
            #"not json, password=hunter2"#,
            #"{"id": 4, "op": "add", "domain": "partner.example", "account": "carol", "password": "x"}"#,
            #"{"id": 5, "op": "request", "domain": "tacos.example", "pick": "cancel"}"#,
            #"{"id": 6, "op": "request", "domain": "tacos.example", "pick": "bob"}"#,
            #"{"id": 7, "op": "add", "domain": "tacos.example", "account": "dave", "password": "x", "user": "not-now"}"#,
        ].joined(separator: "\n") + "\n"
        let result = try await CLI.run(["batch"] + Self.app, stdin: input, home: home)
        let results = try Self.lines(result)
        #expect(results.count == 7)
        #expect(results.map { ($0["exit"] as? Int) ?? -1 } == [0, 0, 65, 12, 13, 0, 13])
        #expect((results[0]["credentials"] as? [[String: Any]])?.first?["password"] as? String == "pw-alice")
        #expect(results[1]["id"] as? String == "two")
        #expect(results[1]["operation"] as? String == "added")
        #expect((results[3]["error"] as? [String: Any])?["status"] as? Int == -25293)
        #expect((results[5]["credentials"] as? [[String: Any]])?.first?["password"] as? String == "pw-bob")
        #expect(results[6]["operation"] as? String == "declined")
        #expect(!result.stdout.contains("hunter2") && !result.stderr.contains("hunter2"), "a malformed line was echoed")
        #expect(result.status == 65, "the batch exits with the first failing line's code")

        var validator = JSONSchemaValidator.repository
        for line in results {
            #expect(try validator.validate(line, against: "batch") == [])
        }
    }

    @Test("a passphrase store is unlocked once for the whole batch (passphrase read once, from a file)")
    func passphraseStore() async throws {
        let home = try CLI.temporaryDirectory("swcred-batch-pass")
        defer { try? FileManager.default.removeItem(at: home) }
        let passphrase = home.appendingPathComponent("passphrase")
        try Data("batch passphrase\n".utf8).write(to: passphrase)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passphrase.path)
        let store = ["--store", home.appendingPathComponent("k.swcred").path, "--passphrase-file", passphrase.path]
        #expect(try await CLI.run(["init", "--kdf", "test"] + store, home: home).status == 0)
        let input = (1...50).map { #"{"id": \#($0), "op": "add", "domain": "tacos.example", "account": "user\#($0)", "generate": true}"# }
            .joined(separator: "\n") + "\n" + #"{"id": "last", "op": "request", "domain": "tacos.example", "pick": "user50"}"# + "\n"
        let result = try await CLI.run(["batch"] + store + Self.app, stdin: input, home: home)
        #expect(result.status == 0, "\(result.stderr)")
        let results = try Self.lines(result)
        #expect(results.count == 51)
        #expect(results.allSatisfy { $0["exit"] as? Int == 0 })
        let list = try await CLI.run(["list", "--format", "json"] + store, home: home)
        #expect((try list.json()["items"] as? [Any])?.count == 50)
        // Wrong passphrase: the batch fails once, before reading any line.
        try Data("wrong\n".utf8).write(to: passphrase)
        let wrong = try await CLI.run(["batch"] + store + Self.app, stdin: input, home: home)
        #expect(wrong.status == 20)
        #expect(wrong.stdout.isEmpty)
    }

    @Test("stdin carries the requests, so --passphrase-stdin is a usage error")
    func passphraseStdinRefused() async throws {
        let result = try await CLI.run(["batch", "--passphrase-stdin"] + Self.app, stdin: "")
        #expect(result.status == 64)
    }

    @Test("a request line over the 64 KiB limit is refused (65) and the batch goes on")
    func lineLimit() async throws {
        let home = try CLI.temporaryDirectory("swcred-batch-limit")
        defer { try? FileManager.default.removeItem(at: home) }
        let long = String(repeating: "x", count: 70_000)
        let input = #"{"id": 1, "op": "add", "domain": "tacos.example", "account": "a", "password": "\#(long)"}"# + "\n"
            + #"{"id": 2, "op": "add", "domain": "tacos.example", "account": "b", "password": "short"}"# + "\n"
        let result = try await CLI.run(["batch"] + Self.app, stdin: input, home: home)
        let results = try Self.lines(result)
        #expect(results.map { ($0["exit"] as? Int) ?? -1 } == [65, 0])
        #expect(!result.stdout.contains("xxxxxxxx"))
    }

    @Test("a key given twice in a request line is refused (65) naming the key, never a value; the batch goes on")
    func duplicateKey() async throws {
        let home = try CLI.temporaryDirectory("swcred-batch-duplicate")
        defer { try? FileManager.default.removeItem(at: home) }
        let input = [
            #"{"id": 1, "op": "add", "domain": "tacos.example", "account": "a", "password": "pw-one", "password": "pw-two"}"#,
            #"{"id": 2, "op": "add", "domain": "tacos.example", "account": "b", "password": "short", "user": null}"#,
            #"{"id": 3, "op": "passkey-register", "options": {"rp": {"id": "tacos.example", "id": "x.example"}}}"#,
            "\u{FEFF}" + #"{"id": 4, "op": "add", "domain": "tacos.example", "account": "c", "password": "bom"}"#,
        ].joined(separator: "\n") + "\n"
        let result = try await CLI.run(["batch"] + Self.app, stdin: input, home: home)
        let results = try Self.lines(result)
        #expect(results.map { ($0["exit"] as? Int) ?? -1 } == [65, 0, 65, 0])  // a BOM is skipped, as before
        let message = (results[0]["error"] as? [String: Any])?["message"] as? String
        #expect(message == #"line 1: the key "password" appears more than once"#, "\(message ?? "nil")")
        let nested = (results[2]["error"] as? [String: Any])?["message"] as? String
        #expect(nested == #"line 3: the key "id" appears more than once in options.rp"#, "\(nested ?? "nil")")
        #expect(!result.stdout.contains("pw-one") && !result.stdout.contains("pw-two"))
        #expect(!result.stderr.contains("pw-one") && !result.stderr.contains("pw-two"))
    }

    @Test("adds are grouped: 300 adds cost a few store writes, not 300; every result is in order and every item saved")
    func groupedWrites() async throws {
        let home = try CLI.temporaryDirectory("swcred-batch-group")
        defer { try? FileManager.default.removeItem(at: home) }
        #expect(try await CLI.run(["add", "tacos.example", "seed", "--password-stdin"], stdin: "pw\n", home: home).status == 0)
        let before = try #require(try await CLI.run(["list", "--format", "json"], home: home).json()["generation"] as? Int)
        let count = 300
        let input = (1...count).map {
            #"{"id": \#($0), "op": "add", "domain": "tacos.example", "account": "user\#($0)", "password": "pw-\#($0)"}"#
        }.joined(separator: "\n") + "\n" + #"{"id": "again", "op": "add", "domain": "tacos.example", "account": "user7", "password": "x"}"# + "\n"
        let result = try await CLI.run(["batch"] + Self.app, stdin: input, home: home)
        let results = try Self.lines(result)
        #expect(results.count == count + 1)
        #expect(results.prefix(count).map { $0["id"] as? Int } == (1...count).map { $0 })
        #expect(results.prefix(count).allSatisfy { $0["exit"] as? Int == 0 && $0["operation"] as? String == "added" })
        // The last line sees the add made earlier in the same group, and updates it.
        #expect(results.last?["exit"] as? Int == 0)
        #expect(results.last?["operation"] as? String == "updated")
        #expect(result.status == 0, "\(result.stderr)")
        let list = try await CLI.run(["list", "--format", "json"], home: home).json()
        #expect((list["items"] as? [Any])?.count == count + 1)
        let after = try #require(list["generation"] as? Int)
        // The whole input is in the pipe before the batch reads it: one group, so one write;
        // allow a few in case the pipe was read in pieces.
        #expect(after - before >= 1 && after - before <= 10, "\(after - before) writes for \(count) adds")
        #expect(try await CLI.run(["show", "tacos.example", "user150"], home: home).stdout == "pw-150\n")
        #expect(try await CLI.run(["show", "tacos.example", "user7"], home: home).stdout == "x\n")
    }

    @Test("a caller that waits for each result before sending the next line gets it (a group ends where input pauses)")
    func lineByLine() throws {
        let home = try CLI.temporaryDirectory("swcred-batch-interactive")
        defer { try? FileManager.default.removeItem(at: home) }
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["batch"] + Self.app
        process.environment = [
            "PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path,
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var received = Data()
        for index in 1...3 {
            let line = #"{"id": \#(index), "op": "add", "domain": "tacos.example", "account": "u\#(index)", "password": "p"}"#
            input.fileHandleForWriting.write(Data((line + "\n").utf8))
            // Read until this line's result arrives (the batch must not wait for more input first).
            let deadline = Date().addingTimeInterval(30)
            while received.split(separator: UInt8(ascii: "\n")).count < index, Date() < deadline {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                received.append(chunk)
            }
            #expect(received.split(separator: UInt8(ascii: "\n")).count == index, "no result for line \(index)")
        }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.contains(#""exit":0"#) })
    }
}
