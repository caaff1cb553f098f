import Foundation
import Testing

/// Issue 31, item 5: swcred never prints a provisioned device's identifier (only the count), a
/// developer certificate's subject, the profile's signer, the profile's or the team's name. The
/// fixtures of `Tools/make-app-fixtures` plant made-up ones in every profile; every output of
/// `entitlements` and `verify --app` (text, JSON, errors) is searched for them.
@Suite("Signed apps: no device, certificate or name in any output")
struct SignedAppPrivacyTests {
    /// The values the fixture script plants (Tools/make-app-fixtures: FAKE_*).
    static let planted = [
        "00008101-000A1B2C3D4E5F60", "f00dfacef00dfacef00dfacef00dfacef00dface", "Fixture Taco Team Name LLC",
        "Fixture Person Name", "Fixture Profile Signer", "Fixture Taco Profile Name",
    ]

    /// The planted values found in `text`, as written, without dashes, in either case, or by a
    /// distinctive part (a UDID's last 12 digits, a name's second word pair).
    static func leaks(in text: String) -> [String] {
        let lowered = text.lowercased()
        return planted.filter { value in
            let forms = [value, value.replacingOccurrences(of: "-", with: ""), String(value.suffix(12))]
                + (value.contains(" ") ? [value.split(separator: " ").prefix(3).joined(separator: " ")] : [])
            return forms.contains { lowered.contains($0.lowercased()) }
        }
    }

    static let apps = CLI.fixtures.appendingPathComponent("apps")
    static let sites = CLI.fixtures.appendingPathComponent("sites").path

    @Test("the scanner finds each planted value where it is, so a leak would fail the test")
    func scannerFindsPlantedValues() throws {
        for value in Self.planted {
            #expect(Self.leaks(in: "device: \(value)\n") == [value])
            #expect(Self.leaks(in: "{\"x\":\"\(value.uppercased())\"}") == [value])
        }
        #expect(Self.leaks(in: "udid 00008101000A1B2C3D4E5F60") == ["00008101-000A1B2C3D4E5F60"])
        // The planted values are really in the fixtures: the raw .ipa, printed, would leak them
        // (TacoShop-resigned.ipa: its entries are stored, TacoShop.ipa's deflated; the same profile).
        let raw = String(
            decoding: try Data(contentsOf: Self.apps.appendingPathComponent("TacoShop-resigned.ipa")), as: UTF8.self)
        #expect(Set(Self.leaks(in: raw)).isSuperset(of: [
            "00008101-000A1B2C3D4E5F60", "f00dfacef00dfacef00dfacef00dfacef00dface", "Fixture Taco Team Name LLC",
            "Fixture Profile Signer", "Fixture Taco Profile Name",
        ]))
    }

    @Test("entitlements and verify --app, text and JSON, on every fixture, and their errors")
    func noOutputLeaks() async throws {
        var outputs: [(String, String)] = []
        for name in ["TacoShop.ipa", "TacoShop-resigned.ipa", "TacoShop-profile-denies.ipa"] {
            let path = Self.apps.appendingPathComponent(name).path
            for format in ["text", "json"] {
                let entitlements = try await CLI.run(["entitlements", path, "--format", format])
                #expect(entitlements.status == 0)
                let verify = try await CLI.run(["verify", "--app", path, "--aasa-dir", Self.sites, "--format", format])
                let drift = try await CLI.run(
                    ["verify", "--app", path, "--entitlements", Self.apps.appendingPathComponent("TacoShop.entitlements").path,
                     "--aasa-dir", Self.sites, "--format", format])
                for (label, result) in [("entitlements", entitlements), ("verify", verify), ("drift", drift)] {
                    outputs.append(("\(label) \(name) \(format)", result.stdout + result.stderr))
                }
            }
        }
        // Errors: the .ipa cut short (its profile's bytes are where the cut falls) is refused, stored
        // (TacoShop-resigned.ipa) and deflated (TacoShop.ipa, issue 31).
        let directory = try CLI.temporaryDirectory("swcred-app-privacy")
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, step) in [("TacoShop-resigned.ipa", 4_093), ("TacoShop.ipa", 997)] {
            let bytes = try Data(contentsOf: Self.apps.appendingPathComponent(name))
            for cut in stride(from: 1_000, to: bytes.count, by: step) {
                let truncated = directory.appendingPathComponent("cut-\(cut).ipa")
                try bytes.prefix(cut).write(to: truncated)
                for format in ["text", "json"] {
                    let result = try await CLI.run(["entitlements", truncated.path, "--format", format])
                    #expect(result.status == 65)
                    outputs.append(("cut \(name) \(cut) \(format)", result.stdout + result.stderr))
                }
            }
        }
        // The profile alone (extracted with Python's zipfile, where there is python3).
        let extract = try? CLI.runProgram(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", "-c",
             "import sys, zipfile; open(sys.argv[2], 'wb').write(zipfile.ZipFile(sys.argv[1]).read("
                + "'Payload/TacoShop.app/embedded.mobileprovision'))",
             Self.apps.appendingPathComponent("TacoShop.ipa").path,
             directory.appendingPathComponent("embedded.mobileprovision").path])
        if extract?.status == 0 {
            for format in ["text", "json"] {
                let profile = try await CLI.run(
                    ["entitlements", directory.appendingPathComponent("embedded.mobileprovision").path, "--format", format])
                #expect(profile.status == 0, "\(profile.stderr)")
                #expect(profile.stdout.contains("2"))
                outputs.append(("profile \(format)", profile.stdout + profile.stderr))
            }
        }
        #expect(outputs.count > 30)
        for (label, text) in outputs {
            #expect(Self.leaks(in: text).isEmpty, "\(label) prints \(Self.leaks(in: text))")
        }
        // The count is printed instead.
        let text = try await CLI.run(["entitlements", Self.apps.appendingPathComponent("TacoShop.ipa").path])
        #expect(text.stdout.contains("2 devices"))
    }
}
