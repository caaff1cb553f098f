import ArgumentParser
import Foundation
import SWCredTLSTestServer
import Testing
@testable import SWCredCLI

/// Issue 22: the `swcred` executable links no network code and hands the command lines that fetch
/// to `swcred-fetch` beside it (`execv`, same argv, stdin and environment inherited); the
/// commands that do not fetch never need the sibling.
@Suite("swcred hands network commands to swcred-fetch")
struct NetworkHandOffTests {
    /// The sibling next to the binary under test.
    static var sibling: URL { CLI.binary.deletingLastPathComponent().appendingPathComponent("swcred-fetch") }

    /// A folder holding a copy of `swcred` alone, without `swcred-fetch`.
    static func loneCopy() throws -> (directory: URL, binary: URL) {
        let directory = try CLI.temporaryDirectory("swcred-lone")
        let copy = directory.appendingPathComponent("swcred")
        try FileManager.default.copyItem(at: CLI.binary, to: copy)
        return (directory, copy)
    }

    @Test("fetch from swcred reaches a real HTTPS server through swcred-fetch (exit 0)")
    func fetchIsHandedOff() async throws {
        try await FetchCommandTests.withSite(routes: [FetchCommandTests.wellKnown: .json(FetchCommandTests.good)]) {
            server, site, reach, ca in
            let result = try CLI.spawn(["fetch", site] + reach + ["--ca-file", ca, "--format", "json"])
            #expect(result.status == 0, "\(result.stderr)")
            let report = try result.json()
            #expect(report["accepted"] as? Bool == true)
            #expect(report["status"] as? Int == 200)
            #expect(server.requests.count == 1)
        }
    }

    @Test("verify --direct from swcred is handed off; the verdict and exit status are the sibling's")
    func verifyDirectIsHandedOff() async throws {
        try await FetchCommandTests.withSite(routes: [FetchCommandTests.wellKnown: .json(FetchVerifyAndAssociationsTests.listing)]) {
            server, site, reach, ca in
            let directory = try CLI.temporaryDirectory("swcred-handoff-verify")
            defer { try? FileManager.default.removeItem(at: directory) }
            let app = try FetchVerifyAndAssociationsTests.entitlements(["webcredentials:\(site)?mode=developer"], in: directory)
            let args = ["verify", "--entitlements", app, "--direct", "--developer-mode", "--ca-file", ca] + reach
            let trusted = try CLI.spawn(args + ["--format", "json"])
            #expect(trusted.status == 0, "\(trusted.stderr)")
            #expect(try trusted.json()["trusted"] as? Bool == true)
            // Without --developer-mode the --ca-file root does not count: exit 10 comes back through the hand-off.
            let refused = try CLI.spawn(args.filter { $0 != "--developer-mode" } + ["--format", "json"])
            #expect(refused.status == 10, "\(refused.stderr)")
            #expect(server.requests.count >= 1)
        }
    }

    @Test("stdin reaches swcred-fetch: match --urls - reads every line the caller wrote")
    func standardInputIsInherited() async throws {
        try await FetchCommandTests.withSite(routes: [FetchCommandTests.wellKnown: .json(FetchVerifyAndAssociationsTests.listing)]) {
            _, site, reach, ca in
            let directory = try CLI.temporaryDirectory("swcred-handoff-stdin")
            defer { try? FileManager.default.removeItem(at: directory) }
            let app = try FetchVerifyAndAssociationsTests.entitlements(["applinks:\(site)"], in: directory)
            let urls = ["https://\(site)/a", "https://\(site)/b", "https://\(site)/c"]
            let result = try CLI.spawn(
                ["match", "--urls", "-", "--entitlements", app, "--direct", "--ca-file", ca] + reach + ["--format", "json"],
                stdin: urls.joined(separator: "\n") + "\n")
            let objects = result.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(objects.compactMap { $0["url"] as? String } == urls, "\(result.stdout) \(result.stderr)")
        }
    }

    @Test("without swcred-fetch beside it, a network command is a named internal error (exit 1), nothing fetched")
    func missingSibling() async throws {
        let (directory, lone) = try Self.loneCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let env = CLI.environment([:], home: directory)
        let text = try CLI.runProgram(lone, ["fetch", "example.invalid"], environment: env)
        #expect(text.status == 1)
        #expect(text.stderr.contains("\(directory.path)/swcred-fetch"), "\(text.stderr)")
        #expect(text.stderr.contains("missing"))
        let json = try CLI.runProgram(lone, ["verify", "--entitlements", "x.entitlements", "--cdn", "--format", "json"], environment: env)
        #expect(json.status == 1)
        let error = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stderr.utf8)) as? [String: Any])["error"] as? [String: Any]
        #expect(error?["code"] as? String == "internalError")
    }

    @Test("offline commands run without swcred-fetch: --version, verify --aasa-dir (also with --direct: --aasa-dir wins), lint")
    func offlineCommandsNeedNoSibling() async throws {
        let (directory, lone) = try Self.loneCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let env = CLI.environment([:], home: directory)
        #expect(try CLI.runProgram(lone, ["--version"], environment: env).status == 0)
        let app = CLI.fixtures.appendingPathComponent("apps/TacoShopRelease.entitlements").path
        let sites = CLI.fixtures.appendingPathComponent("sites").path
        let verify = try CLI.runProgram(lone, ["verify", "--entitlements", app, "--aasa-dir", sites], environment: env)
        #expect(verify.status == 0, "\(verify.stderr)")
        let both = try CLI.runProgram(
            lone, ["verify", "--entitlements", app, "--aasa-dir", sites, "--direct"], environment: env)
        #expect(both.status == 0, "\(both.stderr)")
        let lint = try CLI.runProgram(
            lone, ["lint", CLI.fixtures.appendingPathComponent("sites/tacos.example/.well-known/apple-app-site-association").path],
            environment: env)
        #expect(lint.status == 0, "\(lint.stderr)")
    }

    @Test("swcred links no network stack; swcred-fetch does")
    func networkCodeOnlyInTheSibling() throws {
        let small = try Data(contentsOf: CLI.binary)
        let fetch = try Data(contentsOf: Self.sibling)
        // Mangled module names in the symbol table and type metadata.
        for module in ["15AsyncHTTPClient", "8NIOPosix", "6NIOSSL"] {
            #expect(small.range(of: Data(module.utf8)) == nil, "swcred contains \(module)")
            #expect(fetch.range(of: Data(module.utf8)) != nil, "swcred-fetch lacks \(module)")
        }
    }
}

/// Issue 28: whether a command fetches follows from its options, for every command: one that
/// takes a live source (`--direct`, `--cdn`) decides the hand-off from them, whatever its name,
/// so that a new command cannot pass the in-process tests (which install HTTPS retrieval) and
/// fail only in the shipped `swcred`.
@Suite("Every command that can fetch hands off")
struct FetchingCommandsTests {
    @Test("every command with --direct or --cdn derives the hand-off from its source options")
    func everyLiveSourceCommandHandsOff() async throws {
        var checked: [String] = []
        // `fetch` always fetches (its own test below); every other command with a live source
        // decides from its SourceOptions.
        for command in try await CommandTree.load().commands
        where !command.optionNames.isDisjoint(with: ["direct", "cdn"]) && command.fullName != "fetch" {
            checked.append(command.fullName)
            #expect(command.type.map { $0 is any SourceSelectingCommand.Type } == true,
                    "\(command.fullName) takes --direct/--cdn but does not decide its hand-off from SourceOptions")
        }
        #expect(checked.count >= 6, "\(checked)")
    }

    @Test("a parsed command line with a live source says it fetches; with --aasa-dir it does not")
    func parsedCommandsDecide() throws {
        let app = CLI.repositoryRoot.appendingPathComponent("Fixtures/apps/TacoShop.entitlements").path
        for (arguments, fetches) in [
            (["verify", "--entitlements", app, "--direct"], true),
            (["verify", "--entitlements", app, "--cdn"], true),
            (["verify", "--entitlements", app, "--aasa-dir", "x", "--direct"], false),
            (["request", "tacos.example", "--entitlements", app, "--direct"], true),
            (["associations", "--entitlements", app], false),
            (["fetch", "tacos.example"], true),
            (["list"], false),
        ] {
            let parsed = try SWCred.parseAsRoot(arguments)
            let command = try #require(parsed as? any SWCredSubcommand, "\(arguments)")
            #expect(command.fetchesOverNetwork == fetches, "\(arguments)")
        }
    }
}
