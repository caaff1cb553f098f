import Foundation
import SWCredArtifacts
import SWCredCore
import Testing

/// `.app` folders in both layouts, with the signed executable built at test time.
@Suite("AppBundle reads app folders")
struct AppBundleTests {
    static func info(executable: String = "TacoShop") -> [UInt8] {
        Array(
            TestSigner.xmlPlist([
                ("CFBundleExecutable", .string(executable)), ("CFBundleIdentifier", .string(Fixtures.bundleID)),
            ]).utf8)
    }

    /// Writes an app folder: `files` maps paths relative to the bundle to their bytes.
    static func makeApp(_ files: [String: [UInt8]]) throws -> String {
        let root = Fixtures.directory.appendingPathComponent("\(UUID().uuidString)/TacoShop.app")
        for (path, bytes) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        return root.path
    }

    @Test(
        "iOS's flat layout and macOS's Contents layout",
        .enabled(
            if: FixtureTools.canLink && ProvisioningProfileTests.openssl != nil,
            "clang, ld64.lld-14 or openssl is not installed"),
        arguments: [AppBundle.Layout.flat, .contents])
    func layouts(layout: AppBundle.Layout) throws {
        let binary = try Fixtures.signed()
        let path =
            layout == .flat
            ? try Self.makeApp(["Info.plist": Self.info(), "TacoShop": binary, "embedded.mobileprovision": try ProvisioningProfileTests.profile(
                    ProvisioningProfileTests.payload(), stream: true),
            ])
            : try Self.makeApp(["Contents/Info.plist": Self.info(), "Contents/MacOS/TacoShop": binary])
        let app = try AppBundle.load(path: path)
        #expect(app.layout == layout)
        #expect(app.bundleIdentifier == Fixtures.bundleID)
        #expect(app.executableName == "TacoShop")
        #expect(app.embeddedProfilePath == (layout == .flat ? "embedded.mobileprovision" : nil))
        #expect(app.embeddedProfile?.kind == (layout == .flat ? .development : nil))
        let signature = try #require(app.executable.slices.first?.signature)
        #expect(signature.codeDirectory.identifier == app.bundleIdentifier)
        #expect(signature.applicationIdentifier == "ABCDE12345.com.example.TacoShop")
    }

    @Test(
        "a binary Info.plist (written by Python's plistlib)",
        .enabled(if: FixtureTools.canLink && FixtureTools.find(["python3"]) != nil, "clang, lld or python3 missing"))
    func binaryInfoPlist() throws {
        let python = try #require(FixtureTools.find(["python3"]))
        let output = try FixtureTools.run(
            python,
            [
                "-c",
                "import plistlib, sys; sys.stdout.buffer.write(plistlib.dumps({'CFBundleExecutable': 'TacoShop', "
                    + "'CFBundleIdentifier': 'com.example.TacoShop'}, fmt=plistlib.FMT_BINARY))",
            ])
        let path = try Self.makeApp(["Info.plist": [UInt8](output), "TacoShop": try Fixtures.signed()])
        let app = try AppBundle.load(path: path)
        #expect(app.bundleIdentifier == Fixtures.bundleID)
    }

    @Test(
        "refused: no Info.plist, no CFBundleExecutable, a path as the executable, a missing executable",
        arguments: [
            [String: [UInt8]](),
            ["Info.plist": Array("<plist><dict/></plist>".utf8)],
            ["Info.plist": info(executable: "../../etc/passwd")],
            ["Info.plist": info(executable: "..")],
            ["Info.plist": info()],
            ["Info.plist": Array("<plist><dict>".utf8), "TacoShop": [0]],
            ["Info.plist": info(), "TacoShop": Array("#!/bin/sh".utf8)],
        ])
    func refused(files: [String: [UInt8]]) throws {
        let path = try Self.makeApp(files)
        #expect(throws: SWCredError(.malformedArtifact, "")) { try AppBundle.load(path: path) }
    }
}
