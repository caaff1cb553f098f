import Foundation
import SWCredArtifacts
import SWCredCore
import Testing

/// Profiles made at test time by `openssl cms` from a throw-away certificate, in DER and in
/// indefinite-length BER (`-stream`), as Apple's are. Fake identities only.
@Suite("ProvisioningProfile reads CMS-wrapped profiles")
struct ProvisioningProfileTests {
    static let openssl = FixtureTools.find(["openssl"])
    static let udids = ["00008030-001A2B3C4D5E6F70", "0123456789abcdef0123456789abcdef01234567"]

    static func payload(devices: Bool = true, allDevices: Bool = false, taskAllow: Bool = true) -> String {
        let deviceList = udids.map { "<string>\($0)</string>" }.joined()
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>AppIDName</key><string>Taco Shop</string>
            <key>ApplicationIdentifierPrefix</key><array><string>ABCDE12345</string></array>
            <key>CreationDate</key><date>2026-01-01T00:00:00Z</date>
            <key>DeveloperCertificates</key><array><data>AAECAw==</data></array>
            <key>Entitlements</key><dict>
                <key>application-identifier</key><string>ABCDE12345.com.example.TacoShop</string>
                <key>com.apple.developer.associated-domains</key><string>*</string>
                <key>com.apple.developer.team-identifier</key><string>ABCDE12345</string>
                <key>get-task-allow</key>\(taskAllow ? "<true/>" : "<false/>")
            </dict>
            <key>ExpirationDate</key><date>2027-01-01T00:00:00Z</date>
            <key>Name</key><string>Fake Profile Name</string>
            <key>Platform</key><array><string>iOS</string></array>
            \(devices ? "<key>ProvisionedDevices</key><array>\(deviceList)</array>" : "")
            \(allDevices ? "<key>ProvisionsAllDevices</key><true/>" : "")
            <key>TeamIdentifier</key><array><string>ABCDE12345</string></array>
            <key>TeamName</key><string>Fake Team Name</string>
            <key>UUID</key><string>11111111-2222-3333-4444-555555555555</string>
            </dict></plist>
            """
    }

    /// Signs `payload` with a fresh self-signed certificate (`openssl cms -sign -nodetach`).
    static func profile(_ payload: String, stream: Bool) throws -> [UInt8] {
        let openssl = try #require(Self.openssl)
        let folder = Fixtures.directory.appendingPathComponent("profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = folder.appendingPathComponent("key.pem").path
        let certificate = folder.appendingPathComponent("cert.pem").path
        let input = folder.appendingPathComponent("payload.plist")
        let output = folder.appendingPathComponent("embedded.mobileprovision").path
        try Data(payload.utf8).write(to: input)
        try FixtureTools.run(
            openssl,
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                "-subj", "/CN=Fake Developer: Nobody (ABCDE12345)", "-keyout", key, "-out", certificate,
            ])
        try FixtureTools.run(
            openssl,
            [
                "cms", "-sign", "-binary", "-nodetach", "-outform", "DER", "-in", input.path, "-signer", certificate,
                "-inkey", key, "-out", output,
            ] + (stream ? ["-stream"] : []))
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    @Test(
        "a development profile, DER and BER: team, prefixes, dates, kind, device count, entitlements",
        .enabled(if: openssl != nil, "openssl is not installed"), arguments: [false, true])
    func development(stream: Bool) throws {
        let bytes = try Self.profile(Self.payload(), stream: stream)
        if stream { #expect(bytes[1] == 0x80, "openssl -stream writes an indefinite length") }
        let profile = try ProvisioningProfile.read(bytes)
        #expect(profile.uuid == "11111111-2222-3333-4444-555555555555")
        #expect(profile.kind == .development)
        #expect(profile.teamIdentifier == "ABCDE12345")
        #expect(profile.applicationIdentifierPrefixes == ["ABCDE12345"])
        #expect(profile.platforms == ["iOS"])
        #expect(profile.deviceCount == 2)
        #expect(profile.creationDate == 788_918_400)  // 2026-01-01, seconds since 2001
        #expect(profile.expirationDate == 820_454_400)  // 2027-01-01
        #expect(profile.allowedAssociatedDomains == ["*"])
        #expect(profile.entitlements.applicationIdentifier == "ABCDE12345.com.example.TacoShop")
        // Privacy: nothing kept can print a device identifier, a certificate subject or a name.
        let printed = "\(profile) \(String(reflecting: profile))"
        for secret in Self.udids + ["Fake Team Name", "Fake Profile Name", "Fake Developer", "Nobody"] {
            #expect(!printed.contains(secret), "\(secret) is printed")
        }
    }

    @Test("the other kinds: ad hoc, enterprise, App Store", .enabled(if: openssl != nil, "openssl is not installed"))
    func kinds() throws {
        let adHoc = try ProvisioningProfile.read(try Self.profile(Self.payload(taskAllow: false), stream: false))
        #expect(adHoc.kind == .adHoc)
        let enterprise = try ProvisioningProfile.read(
            try Self.profile(Self.payload(devices: false, allDevices: true, taskAllow: false), stream: false))
        #expect(enterprise.kind == .enterprise)
        let store = try ProvisioningProfile.read(
            try Self.profile(Self.payload(devices: false, taskAllow: false), stream: false))
        #expect(store.kind == .appStore)
        #expect(store.deviceCount == 0)
    }

    @Test(
        "openssl cms -verify -noverify gives the content the reader read",
        .enabled(if: openssl != nil, "openssl is not installed"))
    func agreesWithOpenSSL() throws {
        let openssl = try #require(Self.openssl)
        let bytes = try Self.profile(Self.payload(), stream: true)
        let path = try Fixtures.write(bytes, "verify-\(UUID().uuidString).mobileprovision")
        let content = try FixtureTools.run(
            openssl, ["cms", "-verify", "-noverify", "-inform", "DER", "-in", path.path])
        #expect([UInt8](content) == Array(Self.payload().utf8))
        let fromOpenSSL = try PropertyListReader().read([UInt8](content))
        #expect(fromOpenSSL.dictionaryValue?["UUID"]?.stringValue == (try ProvisioningProfile.read(bytes)).uuid)
    }

    @Test(
        "every truncation of a profile, DER and BER, is refused with malformedArtifact",
        .enabled(if: openssl != nil, "openssl is not installed"), arguments: [false, true])
    func truncations(stream: Bool) throws {
        let bytes = try Self.profile(Self.payload(), stream: stream)
        for length in 0..<bytes.count {
            #expect(throws: SWCredError(.malformedArtifact, ""), "\(length) bytes") {
                try ProvisioningProfile.read(Array(bytes[..<length]))
            }
        }
    }

    @Test("not a profile: a bare plist, a detached signature, random DER")
    func refused() {
        for input: [UInt8] in [
            Array("<plist><dict/></plist>".utf8), [0x30, 0x03, 0x02, 0x01, 0x01], [], [0x30, 0x80],
        ] {
            #expect(throws: SWCredError(.malformedArtifact, "")) { try ProvisioningProfile.read(input) }
        }
    }
}
