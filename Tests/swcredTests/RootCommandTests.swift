import Foundation
import Testing

@Suite("swcred root command")
struct RootCommandTests {
    @Test("--version prints the version and exits 0")
    func version() async throws {
        let result = try await CLI.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
    }

    @Test("an unknown subcommand is a usage error, exit 64")
    func unknownSubcommand() async throws {
        let result = try await CLI.run(["no-such-command"])
        #expect(result.status == 64)
    }
}
