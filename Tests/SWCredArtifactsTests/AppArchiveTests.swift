import Foundation
import SWCredArtifacts
import SWCredCore
import Testing

/// `.ipa` files made by Info-ZIP's `zip` and Python's `zipfile` at test time.
@Suite("AppArchive reads .ipa files in memory")
struct AppArchiveTests {
    static let zip = FixtureTools.find(["zip"])
    static let python = FixtureTools.find(["python3"])

    /// Zips a `Payload/TacoShop.app` made of `files` with `zip -r` (stored with `-0`).
    static func ipa(_ files: [String: [UInt8]], stored: Bool = true) throws -> [UInt8] {
        let zip = try #require(Self.zip)
        let app = try AppBundleTests.makeApp(files)
        let root = URL(fileURLWithPath: app).deletingLastPathComponent()
        let payload = root.appendingPathComponent("Payload")
        try FileManager.default.createDirectory(at: payload, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: app, toPath: payload.appendingPathComponent("TacoShop.app").path)
        let output = root.appendingPathComponent("TacoShop.ipa").path
        let process = Process()
        process.executableURL = zip
        process.currentDirectoryURL = root
        process.arguments = ["-q", "-r", "-X"] + (stored ? ["-0"] : []) + [output, "Payload"]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    static func signedApp() throws -> [String: [UInt8]] {
        [
            "Info.plist": AppBundleTests.info(), "TacoShop": try Fixtures.signed(),
            "embedded.mobileprovision": try ProvisioningProfileTests.profile(
                ProvisioningProfileTests.payload(), stream: false),
        ]
    }

    @Test(
        "a stored .ipa: the app, its identity and its signed entitlements",
        .enabled(
            if: FixtureTools.canLink && zip != nil && ProvisioningProfileTests.openssl != nil,
            "clang, ld64.lld-14, zip or openssl is not installed"))
    func stored() throws {
        let ipa = try AppArchive.read(try Self.ipa(try Self.signedApp()))
        #expect(ipa.appPath == "Payload/TacoShop.app")
        #expect(ipa.app.bundleIdentifier == Fixtures.bundleID)
        #expect(ipa.app.embeddedProfilePath == "embedded.mobileprovision")
        #expect(ipa.app.embeddedProfile?.teamIdentifier == "ABCDE12345")
        let signature = try #require(ipa.app.executable.slices.first?.signature)
        #expect(signature.applicationIdentifier == "ABCDE12345.com.example.TacoShop")
        #expect(signature.entitlementsSealed && signature.codeSealed)
    }

    @Test(
        "issue 31: a deflated .ipa (Info-ZIP's zip, as Xcode deflates) reads as the stored one",
        .enabled(
            if: FixtureTools.canLink && zip != nil && ProvisioningProfileTests.openssl != nil,
            "clang, lld-14, zip or openssl missing"))
    func deflated() throws {
        let files = try Self.signedApp()
        let stored = try AppArchive.read(try Self.ipa(files))
        let deflated = try AppArchive.read(try Self.ipa(files, stored: false))
        #expect(deflated == stored)
        #expect(deflated.app.embeddedProfile?.teamIdentifier == "ABCDE12345")
    }

    @Test(
        "every truncation of a stored .ipa, in steps, is refused",
        .enabled(if: FixtureTools.canLink && zip != nil && ProvisioningProfileTests.openssl != nil, "clang, lld-14, zip or openssl missing"))
    func truncations() throws {
        let bytes = try Self.ipa(try Self.signedApp())
        for length in stride(from: 0, to: bytes.count, by: 11) {
            #expect(throws: SWCredError(.malformedArtifact, ""), "\(length) bytes") {
                try AppArchive.read(Array(bytes[..<length]))
            }
        }
    }

    @Test(
        "zip-slip names, two apps and no app are refused (archives written by Python's zipfile)",
        .enabled(if: python != nil, "python3 is not installed"),
        arguments: [
            ["../evil", "Payload/A.app/Info.plist"], ["/etc/passwd"], ["Payload/A.app/../../x"],
            ["Payload\\\\A.app\\\\Info.plist"], ["Payload/A.app/Info.plist", "Payload/B.app/Info.plist"],
            ["Other/Info.plist"],
        ])
    func refusedNames(names: [String]) throws {
        let python = try #require(Self.python)
        let output = Fixtures.directory.appendingPathComponent("names-\(UUID().uuidString).ipa").path
        let script =
            "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w') as z:\n"
            + "    for n in sys.argv[2:]: z.writestr(zipfile.ZipInfo(n), b'<plist><dict/></plist>')\n"
        try FixtureTools.run(python, ["-c", script, output] + names)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(throws: SWCredError(.malformedArtifact, "")) { try AppArchive.read(bytes) }
    }
}
