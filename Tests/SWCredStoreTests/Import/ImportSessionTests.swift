import Foundation
import SWCredCore
import Testing
@testable import SWCredStore

/// ``StoreSession/importing(_:onConflict:dryRun:)``: `swcred import` as one library call.
@Suite("Import through a store session")
struct ImportSessionTests {
    static let export = "Title,URL,Username,Password,Notes,OTPAuth\n"
        + "Tacos,https://tacos.example/,alice,pw-1,,\nBurritos,https://burritos.example/,bob,pw-2,,\n"

    @Test("cli.md import --dry-run: counted on an empty store when there is none; nothing is written or created")
    func dryRunWritesNothing() throws {
        let env = TestEnvironment()
        let session = env.session()
        let file = try CredentialFile.parse(copying: Array(Self.export.utf8))
        let summary = try session.importing(file, onConflict: .fail, dryRun: true)
        #expect(summary.added == 2)
        #expect(!session.storeExists)
    }

    @Test("cli.md import: the store is created on first write; a second dry run sees the items (unchanged)")
    func importThenDryRun() throws {
        let env = TestEnvironment()
        let session = env.session()
        let file = try CredentialFile.parse(copying: Array(Self.export.utf8))
        #expect(try session.importing(file, onConflict: .fail, dryRun: false).added == 2)
        let generation = try session.read().generation
        let again = try env.session().importing(file, onConflict: .fail, dryRun: true)
        #expect(again.unchanged == 2 && again.added == 0)
        #expect(try env.session().read().generation == generation)
    }
}
