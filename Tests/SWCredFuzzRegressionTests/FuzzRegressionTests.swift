import Foundation
import SWCredFuzzHarness
import Testing

/// Every input the fuzzers ever flagged (`FuzzTesting/FailCases/<target>/`) and every bundled
/// fixture a target is seeded from, replayed through the fuzz harness as ordinary tests.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    struct Input: CustomTestStringConvertible, Sendable {
        let target: String
        let path: String
        var testDescription: String { "\(target): \(path)" }
    }

    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func files(under relative: String, named name: String? = nil) -> [String] {
        let root = repository.appendingPathComponent(relative)
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
        return enumerator.compactMap { $0 as? String }
            .filter { path in
                var isDirectory: ObjCBool = false
                FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
                return !isDirectory.boolValue && !path.hasSuffix("README.md") && (name == nil || path.hasSuffix(name!))
            }
            .map { relative + "/" + $0 }
            .sorted()
    }

    static let failCases: [Input] = FuzzHarness.targets.keys.sorted().flatMap { target in
        files(under: "FuzzTesting/FailCases/\(target)").map { Input(target: target, path: $0) }
    }

    static let seeds: [Input] =
        files(under: "Fixtures/sites", named: "apple-app-site-association").map { Input(target: "aasa", path: $0) }
        + files(under: "Fixtures/apps").map { Input(target: "entitlements", path: $0) }
        + files(under: "Fixtures/apps", named: ".entitlements").map { Input(target: "plist", path: $0) }
        + files(under: "FuzzTesting/FailCases/entitlements").map { Input(target: "plist", path: $0) }
        + files(under: "Fixtures/store", named: ".swcred").map { Input(target: "store-reader", path: $0) }
        + files(under: "Fixtures/passkeys", named: ".json").map { Input(target: "passkey-options", path: $0) }
        + files(under: "Fixtures/exports").map { Input(target: "credential-import", path: $0) }
        + files(under: "Fixtures/passkeys", named: ".json").map { Input(target: "json", path: $0) }
        + files(under: "Fixtures/sites", named: "apple-app-site-association").map { Input(target: "json", path: $0) }
        + files(under: "Fixtures/sites", named: "/webauthn").map { Input(target: "webauthn", path: $0) }
        + files(under: "Fixtures/sites", named: "/webauthn").map { Input(target: "json", path: $0) }
        + files(under: "Fixtures/sites", named: "assetlinks.json").map { Input(target: "assetlinks", path: $0) }
        + files(under: "Fixtures/android", named: ".xml").map { Input(target: "android-manifest", path: $0) }
        + files(under: "Fixtures/apps", named: ".ipa").map { Input(target: "ipa", path: $0) }

    @Test("crash inputs found by the fuzzers stay fixed", arguments: failCases)
    func failCase(_ input: Input) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.repository.appendingPathComponent(input.path)))
        let run = try #require(FuzzHarness.targets[input.target])
        #expect(run(bytes) == [])
    }

    @Test("the fuzzers' seed inputs pass the harness", arguments: seeds)
    func seed(_ input: Input) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.repository.appendingPathComponent(input.path)))
        let run = try #require(FuzzHarness.targets[input.target])
        #expect(run(bytes) == [])
    }

    @Test("a rule-constrained password and a truncated AASA are handled without a broken promise")
    func harnessCanFail() throws {
        // A rules string the parser accepts; the harness must check the password against it, so a
        // generator that ignored rules would be caught. Here: the result satisfies the rules.
        let rules = Array("required: digit; minlength: 30; maxlength: 30;".utf8)
        #expect(FuzzHarness.passwordRules(rules) == [])
        // Lint and parse must agree: a file that does not parse is an error finding.
        #expect(FuzzHarness.aasa(Array("{\"applinks\": [".utf8)) == [])
        // The JSON reader's policies agree on a repeat, and a deep or long input stays in its limits.
        #expect(FuzzHarness.json(Array(#"{"a":1,"b":{"c":[2,-0,1e300,"\u00e9"]},"a":{"a":null}}"#.utf8)) == [])
        let deep = String(repeating: "[", count: 13) + String(repeating: "]", count: 13)
        #expect(FuzzHarness.json(Array(deep.utf8)) == [])
        // The macho target: a thin header with an LC_CODE_SIGNATURE past the end, a universal
        // header with a slice past the end, and text: each refused as malformedArtifact.
        let header: [UInt8] = [0xcf, 0xfa, 0xed, 0xfe, 0x0c, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 16, 0, 0, 0]
        let command: [UInt8] = [0x1d, 0, 0, 0, 16, 0, 0, 0, 0, 0x10, 0, 0, 0x10, 0, 0, 0]
        #expect(FuzzHarness.machO(header + [0, 0, 0, 0, 0, 0, 0, 0] + command) == [])
        #expect(FuzzHarness.machO([0xca, 0xfe, 0xba, 0xbf, 0, 0, 0, 1] + [UInt8](repeating: 0xff, count: 32)) == [])
        #expect(FuzzHarness.machO(Array("not a binary".utf8)) == [])
        // The plist target: a value that survives its XML round trip (a CR, a NaN, a big integer,
        // data), one over the depth limit, and a dictionary the entitlements reader must accept.
        let plist =
            "<plist><array><string>a&#13;b</string><real>nan</real><integer>18446744073709551615</integer>"
            + "<data>AAE=</data><date>2001-01-01T00:00:00Z</date><dict><key>k</key><true/></dict></array></plist>"
        #expect(FuzzHarness.plist(Array(plist.utf8)) == [])
        let deepPlist = "<plist>" + String(repeating: "<array>", count: 13) + String(repeating: "</array>", count: 13)
        #expect(FuzzHarness.plist(Array((deepPlist + "</plist>").utf8)) == [])
        let entitlements = "<plist><dict><key>application-identifier</key><string>A.b</string></dict></plist>"
        #expect(FuzzHarness.plist(Array(entitlements.utf8)) == [])
        // The ipa and profile targets: an empty zip, a zip cut short, a BER SEQUENCE of nothing.
        #expect(FuzzHarness.ipa([0x50, 0x4b, 5, 6] + [UInt8](repeating: 0, count: 18)) == [])
        #expect(FuzzHarness.ipa([0x50, 0x4b, 3, 4, 0x14, 0]) == [])
        #expect(FuzzHarness.profile([0x30, 0x80, 0, 0]) == [])
        #expect(FuzzHarness.profile(Array("<plist/>".utf8)) == [])
    }

    @Test("ipa: every 61st byte of each .ipa fixture changed, and cuts: a result or malformedArtifact, no broken promise")
    func ipaMutations() throws {
        for path in Self.files(under: "Fixtures/apps", named: ".ipa") {
            let bytes = try [UInt8](Data(contentsOf: Self.repository.appendingPathComponent(path)))
            #expect(FuzzHarness.ipa(bytes) == [])
            for offset in stride(from: 0, to: bytes.count, by: 61) {
                var changed = bytes
                changed[offset] ^= 0x5a
                #expect(FuzzHarness.ipa(changed) == [], "\(path) byte \(offset)")
            }
            for length in stride(from: 0, to: bytes.count, by: 997) {
                #expect(FuzzHarness.ipa(Array(bytes.prefix(length))) == [], "\(path) cut at \(length)")
            }
        }
    }

}
