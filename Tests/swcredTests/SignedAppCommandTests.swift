import ArgumentParser
import Foundation
import Testing
@testable import SWCredCLI

/// Issue 31: `--app PATH` through the one option type (`AppOptions`), and the hand-off that keeps
/// the signed-artifact readers out of `swcred` (they run in `swcred-fetch`, as the network does).
/// The apps are `Fixtures/apps/*.ipa`, built by `Tools/make-app-fixtures`.
@Suite("--app: the signed app as the commands' app")
struct SignedAppCommandTests {
    static let apps = CLI.fixtures.appendingPathComponent("apps")
    static let tacoShop = apps.appendingPathComponent("TacoShop.ipa").path
    static let resigned = apps.appendingPathComponent("TacoShop-resigned.ipa").path
    static let profileDenies = apps.appendingPathComponent("TacoShop-profile-denies.ipa").path
    static let release = apps.appendingPathComponent("TacoShopRelease.entitlements").path
    static let sites = CLI.fixtures.appendingPathComponent("sites").path

    @Test("every command that takes --app decides its hand-off from its app options")
    func everyAppCommandHandsOff() async throws {
        var checked: [String] = []
        for command in try await CommandTree.load().commands where command.optionNames.contains("app") {
            checked.append(command.fullName)
            #expect(command.type.map { $0 is any AppSelectingCommand.Type } == true,
                    "\(command.fullName) takes --app but does not decide its hand-off from AppOptions")
        }
        for name in ["verify", "request", "add", "passkey register", "passkey assert"] {
            #expect(checked.contains(name), "\(name) does not take --app: \(checked)")
        }
    }

    @Test("a parsed command line with --app, or entitlements on an artifact, reads a signed artifact")
    func parsedCommandsDecide() throws {
        for (arguments, reads) in [
            (["verify", "--app", Self.tacoShop, "--aasa-dir", Self.sites], true),
            (["verify", "--entitlements", Self.release, "--aasa-dir", Self.sites], false),
            (["request", "tacos.example", "--app", Self.tacoShop], true),
            (["add", "tacos.example", "alice", "--password-stdin", "--app", Self.tacoShop], true),
            (["passkey", "register", "o.json", "--app", Self.tacoShop], true),
            (["passkey", "assert", "o.json", "--app", Self.tacoShop], true),
            (["match", "https://tacos.example/taco/x", "--app", Self.tacoShop, "--aasa-dir", Self.sites], true),
            (["associations", "--app", Self.tacoShop], true),
            (["batch", "--app", Self.tacoShop], true),
            (["entitlements", Self.tacoShop], true),
            (["entitlements", Self.apps.path], true),
            (["entitlements", Self.release], false),
            (["list"], false),
        ] {
            let parsed = try SWCred.parseAsRoot(arguments)
            let command = try #require(parsed as? any SWCredSubcommand, "\(arguments)")
            #expect(command.readsSignedArtifacts == reads, "\(arguments)")
            #expect(!command.fetchesOverNetwork, "\(arguments)")
        }
    }

    @Test("swcred hands verify --app to swcred-fetch: trusted, exit 0, with the artifact and no findings")
    func verifyIsHandedOff() throws {
        let result = try CLI.spawn(["verify", "--app", Self.tacoShop, "--aasa-dir", Self.sites, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try result.json()
        #expect(json["trusted"] as? Bool == true)
        #expect(json["appID"] as? String == "ABCDE12345.com.example.tacoshop")
        #expect((json["associations"] as? [Any])?.count == 5)
        #expect((json["findings"] as? [Any])?.isEmpty == true)
        #expect((json["artifact"] as? [String: Any])?["kind"] as? String == "ipa")
    }

    @Test("without swcred-fetch beside it, --app is a named internal error (exit 1); a source file needs none")
    func missingSibling() throws {
        let (directory, lone) = try NetworkHandOffTests.loneCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let env = CLI.environment([:], home: directory)
        let app = try CLI.runProgram(lone, ["verify", "--app", Self.tacoShop, "--aasa-dir", Self.sites], environment: env)
        #expect(app.status == 1)
        #expect(app.stderr.contains("reads a signed app"), "\(app.stderr)")
        let artifact = try CLI.runProgram(lone, ["entitlements", Self.tacoShop], environment: env)
        #expect(artifact.status == 1)
        let source = try CLI.runProgram(lone, ["entitlements", Self.release], environment: env)
        #expect(source.status == 0, "\(source.stderr)")
    }

    @Test("swcred links no artifact reader (SWCredArtifacts, swift-asn1, zlib); swcred-fetch does")
    func readersOnlyInTheSibling() throws {
        let small = try Data(contentsOf: CLI.binary)
        let full = try Data(contentsOf: NetworkHandOffTests.sibling)
        // Mangled module names in the symbol table and type metadata.
        for module in ["15SWCredArtifacts", "9SwiftASN1"] {
            #expect(small.range(of: Data(module.utf8)) == nil, "swcred contains \(module)")
            #expect(full.range(of: Data(module.utf8)) != nil, "swcred-fetch lacks \(module)")
        }
        // zlib (issue 31, deflated .ipa entries): a NEEDED entry of swcred-fetch only.
        #expect(small.range(of: Data("libz.so".utf8)) == nil, "swcred links zlib")
        #expect(full.range(of: Data("libz.so".utf8)) != nil, "swcred-fetch does not link zlib")
    }

    /// Issue 31: TacoShop.ipa re-zipped by Python's zipfile with its entries deflated (as Xcode
    /// writes them), and once more with its Info.plist compressed by bzip2 (method 12).
    static func rezipped(_ method: String) throws -> URL? {
        let python = URL(fileURLWithPath: "/usr/bin/python3")
        guard FileManager.default.isExecutableFile(atPath: python.path) else { return nil }
        let output = try CLI.temporaryDirectory("swcred-deflated").appendingPathComponent("TacoShop.ipa")
        let script = "import sys, zipfile\n" + """
            with zipfile.ZipFile(sys.argv[1]) as s, zipfile.ZipFile(sys.argv[2], 'w') as d:
                for i in s.infolist():
                    bz = sys.argv[3] == 'bzip2' and i.filename.endswith('/Info.plist')
                    d.writestr(i, s.read(i), zipfile.ZIP_BZIP2 if bz else zipfile.ZIP_DEFLATED)
            """
        let result = try CLI.runProgram(python, ["-c", script, Self.tacoShop, output.path, method])
        return result.status == 0 ? output : nil
    }

    @Test("issue 31: verify --app and entitlements read a deflated .ipa as the stored one; bzip2 is 65")
    func deflated() throws {
        guard let deflated = try Self.rezipped("deflate"), let bzip2 = try Self.rezipped("bzip2") else { return }
        defer {
            try? FileManager.default.removeItem(at: deflated.deletingLastPathComponent())
            try? FileManager.default.removeItem(at: bzip2.deletingLastPathComponent())
        }
        let arguments = ["--aasa-dir", Self.sites, "--format", "json"]
        let stored = try CLI.spawn(["verify", "--app", Self.tacoShop] + arguments)
        let result = try CLI.spawn(["verify", "--app", deflated.path] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try result.json()
        #expect(json["trusted"] as? Bool == true)
        #expect(json["appID"] as? String == "ABCDE12345.com.example.tacoshop")
        #expect((json["findings"] as? [Any])?.isEmpty == true)
        // The same report but for the path it names.
        #expect(result.stdout.replacingOccurrences(of: deflated.path, with: Self.tacoShop) == stored.stdout)
        let entitlements = try CLI.spawn(["entitlements", deflated.path, "--format", "json"])
        let storedEntitlements = try CLI.spawn(["entitlements", Self.tacoShop, "--format", "json"])
        #expect(entitlements.status == 0, "\(entitlements.stderr)")
        #expect(
            entitlements.stdout.replacingOccurrences(of: deflated.path, with: Self.tacoShop)
                == storedEntitlements.stdout)
        let refused = try CLI.spawn(["verify", "--app", bzip2.path] + arguments)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("Payload/TacoShop.app/Info.plist"), "\(refused.stderr)")
        #expect(refused.stderr.contains("method 12"), "\(refused.stderr)")
    }

    @Test("APP-1: with --entitlements too, verify reports the drift between source and signed entitlements")
    func drift() async throws {
        let result = try await CLI.run(
            ["verify", "--app", Self.resigned, "--entitlements", Self.release, "--aasa-dir", Self.sites, "--format", "json"])
        #expect(result.status == 10)
        let findings = try #require(try result.json()["findings"] as? [[String: Any]])
        let drift = try #require(findings.first { $0["id"] as? String == "APP-1" })
        #expect(drift["severity"] as? String == "warning")
        #expect((drift["message"] as? String)?.contains("not signed: webcredentials:tacos.example") == true)
        let same = try await CLI.run(
            ["verify", "--app", Self.tacoShop, "--entitlements", Self.release, "--aasa-dir", Self.sites, "--format", "json"])
        #expect(same.status == 0, "\(same.stderr)")
        #expect((try same.json()["findings"] as? [Any])?.isEmpty == true)
    }

    @Test("a trusted verify --app ends, in text mode only, with what the verdict does not cover")
    func notCovered() async throws {
        let paragraph = "It does not"
        let trusted = try await CLI.run(["verify", "--app", Self.tacoShop, "--aasa-dir", Self.sites])
        #expect(trusted.status == 0)
        #expect(trusted.stdout.contains("SFSafariViewController") && trusted.stdout.contains("Simulator"))
        #expect(trusted.stdout.contains(paragraph))
        let json = try await CLI.run(["verify", "--app", Self.tacoShop, "--aasa-dir", Self.sites, "--format", "json"])
        #expect(!json.stdout.contains(paragraph))
        let refused = try await CLI.run(["verify", "--app", Self.profileDenies, "--aasa-dir", Self.sites])
        #expect(refused.status == 10)
        #expect(!refused.stdout.contains(paragraph))
        #expect(refused.stdout.contains("not trusted: the files allow the app, but the signed app fails APP-3"))
        // Source files keep today's output.
        let source = try await CLI.run(["verify", "--entitlements", Self.release, "--aasa-dir", Self.sites])
        #expect(!source.stdout.contains(paragraph))
    }

    @Test("verify --app and entitlements on an .ipa validate against their schemas (artifact, findings)")
    func schemas() async throws {
        var validator = JSONSchemaValidator.repository
        for (schema, arguments, status) in [
            ("verify", ["verify", "--app", Self.tacoShop, "--aasa-dir", Self.sites], Int32(0)),
            ("verify", ["verify", "--app", Self.resigned, "--entitlements", Self.release, "--aasa-dir", Self.sites], 10),
            ("verify", ["verify", "--app", Self.profileDenies, "--aasa-dir", Self.sites], 10),
            ("entitlements", ["entitlements", Self.tacoShop], 0),
        ] {
            let result = try await CLI.run(arguments + ["--format", "json"])
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
            #expect(try validator.validate(document, against: schema) == [], "\(arguments)")
        }
    }

    @Test("swcred explain APP-3 prints the rule-book entry")
    func explain() async throws {
        let result = try await CLI.run(["explain", "APP-3"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("The profile does not allow the signed associated domains"))
    }

    @Test("--app with --app-id, or with --entitlements outside verify, is a usage error (64)")
    func usage() async throws {
        let withID = try await CLI.run(["verify", "--app", Self.tacoShop, "--app-id", "X.y", "--aasa-dir", Self.sites])
        #expect(withID.status == 64)
        let home = try CLI.temporaryDirectory("swcred-app-usage")
        defer { try? FileManager.default.removeItem(at: home) }
        let both = try await CLI.run(
            ["request", "tacos.example", "--app", Self.tacoShop, "--entitlements", Self.release], home: home)
        #expect(both.status == 64, "\(both.stderr)")
        let notAnApp = try await CLI.run(["verify", "--app", Self.release, "--aasa-dir", Self.sites])
        #expect(notAnApp.status == 65, "\(notAnApp.stderr)")
    }

    @Test("match takes the signed app ID and entries from --app")
    func match() async throws {
        let result = try await CLI.run(
            ["match", "https://tacos.example/taco/x?cheese=yes", "--app", Self.tacoShop, "--aasa-dir", Self.sites])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("match\tABCDE12345.com.example.tacoshop\t"))
    }

    @Test("add, request and passkey register take --app as they take --entitlements")
    func storeCommands() async throws {
        let home = try CLI.temporaryDirectory("swcred-app-store")
        defer { try? FileManager.default.removeItem(at: home) }
        let app = ["--app", Self.tacoShop, "--aasa-dir", Self.sites]
        let add = try await CLI.run(["add", "tacos.example", "alice", "--password-stdin"] + app, stdin: "s3cret-Taco", home: home)
        #expect(add.status == 0, "\(add.stderr)")
        let request = try await CLI.run(["request", "tacos.example"] + app, home: home)
        #expect(request.status == 0, "\(request.stderr)")
        #expect(request.stdout == "alice\ts3cret-Taco\n")
        let options = home.appendingPathComponent("create.json")
        try Data(
            #"""
            {"rp":{"id":"tacos.example","name":"Tacos"},"user":{"id":"dXNlci0x","name":"alice","displayName":"Alice"},
             "challenge":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8","pubKeyCredParams":[{"type":"public-key","alg":-7}],
             "authenticatorSelection":{"residentKey":"required","userVerification":"required"},"attestation":"none"}
            """#.utf8
        ).write(to: options)
        let register = try await CLI.run(["passkey", "register", options.path] + app, home: home)
        #expect(register.status == 0, "\(register.stderr)")
        // The re-signed app has no webcredentials entitlement: no passkey for it.
        let refused = try await CLI.run(
            ["passkey", "register", options.path, "--app", Self.resigned, "--aasa-dir", Self.sites], home: home)
        #expect(refused.status != 0)
    }
}
