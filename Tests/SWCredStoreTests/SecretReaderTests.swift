import Foundation
import SWCredCore
import SWCredSodium
import Testing
@testable import SWCredStore

/// ``SecretReader``: the one reader of passwords and passphrases (store.md §4.2, §8).
@Suite("Secret reader")
struct SecretReaderTests {
    /// A private folder with `name` holding `text` at `mode`.
    static func file(_ text: String, mode: Int = 0o600) throws -> (path: String, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swcred-secret-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("secret").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode]))
        return (path, folder)
    }

    static func text(_ secret: SecureBytes) -> String { secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    @Test("store.md §8: a private file is read, one trailing line ending removed")
    func privateFile() throws {
        let (path, folder) = try Self.file("hunter2\r\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(Self.text(try SecretReader().read(.file(path), what: "passphrase")) == "hunter2")
    }

    @Test("store.md §8: a file group or others may read is refused with insecurePermissions, naming no byte of it")
    func groupReadableFile() throws {
        let (path, folder) = try Self.file("hunter2\n", mode: 0o640)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            _ = try SecretReader().read(.file(path), what: "password")
            Issue.record("a group-readable file was read")
        } catch {
            #expect(error.code == .insecurePermissions)
            #expect(!error.message.contains("hunter2"))
        }
    }

    @Test("a missing file and a folder are fileNotFound; a closed descriptor too")
    func missingSources() throws {
        let (path, folder) = try Self.file("x")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: SWCredError(.fileNotFound, "")) { _ = try SecretReader().read(.file(path + ".gone"), what: "password") }
        #expect(throws: SWCredError(.fileNotFound, "")) { _ = try SecretReader().read(.file(folder.path), what: "password") }
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        close(fds[0])
        close(fds[1])
        #expect(throws: SWCredError(.fileNotFound, "")) { _ = try SecretReader().read(.descriptor(fds[0]), what: "passphrase") }
    }

    @Test("SWC-6.1: an empty secret is refused unless the caller allows it (Apple's add takes an empty password)")
    func emptySecret() throws {
        let (path, folder) = try Self.file("\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: SWCredError(.invalidParameter, "")) { _ = try SecretReader().read(.file(path), what: "passphrase") }
        #expect(try SecretReader().read(.file(path), what: "password", allowEmpty: true).count == 0)
    }

    @Test("standard input is the reader's descriptor (a command context injects its own)")
    func injectedStandardInput() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        _ = "from the pipe\n".utf8CString.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count - 1) }
        close(fds[1])
        let secret = try SecretReader(standardInput: fds[0]).read(.standardInput, what: "password")
        #expect(Self.text(secret) == "from the pipe")
    }
}
