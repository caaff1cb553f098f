import SWCredAssociation
import SWCredCore
import Testing

/// `verify --android-manifest`: the manifest's App Links filters and hosts (DAL-Q2), and the
/// `asset_statements` string as aapt2 compiles it (DAL-Q5).
@Suite("Android manifest and strings (DAL-Q2, DAL-Q5)")
struct AndroidManifestTests {
    static func manifest(_ filters: String, meta: String = "") -> [UInt8] {
        Array(
            """
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app">
              <application><activity android:name=".Main">\(filters)</activity>\(meta)</application>
            </manifest>
            """.utf8)
    }

    static func filter(autoVerify: Bool = true, data: String, categories: [String] = ["DEFAULT", "BROWSABLE"]) -> String {
        "<intent-filter\(autoVerify ? " android:autoVerify=\"true\"" : "")>"
            + "<action android:name=\"android.intent.action.VIEW\"/>"
            + categories.map { "<category android:name=\"android.intent.category.\($0)\"/>" }.joined() + data
            + "</intent-filter>"
    }

    static let meta = #"<meta-data android:name="asset_statements" android:resource="@string/asset_statements"/>"#

    static func strings(_ assetStatements: String) -> [UInt8] {
        Array("<resources><string name=\"asset_statements\">\(assetStatements)</string></resources>".utf8)
    }

    @Test("DAL-Q2: hosts of autoVerify web filters are verified; data elements combine; other filters are not")
    func verifiedHosts() throws {
        let read = try AndroidManifest.parse(
            Self.manifest(
                Self.filter(data: #"<data android:scheme="https"/><data android:host="Example.com"/><data android:host="www.example.com"/>"#)
                    + Self.filter(autoVerify: false, data: #"<data android:scheme="https" android:host="plain.example"/>"#)
                    + Self.filter(data: #"<data android:scheme="https" android:host="*.example.com"/>"#)))
        #expect(read.packageName == "com.example.app")
        #expect(read.verifiedHosts == ["example.com", "www.example.com", "*.example.com"])
        #expect(AndroidManifest.verificationHost("*.example.com") == "example.com")
        #expect(read.findings.allSatisfy { $0.rule != .dalQ2 })
    }

    @Test("DAL-Q2: an autoVerify filter mixing schemes, or without BROWSABLE, is not verified on Android 12+ (an error finding)")
    func unverifiableFilters() throws {
        let read = try AndroidManifest.parse(
            Self.manifest(
                Self.filter(data: #"<data android:scheme="https" android:host="a.example"/><data android:scheme="myapp"/>"#)
                    + Self.filter(data: #"<data android:scheme="https" android:host="b.example"/>"#, categories: ["DEFAULT"])))
        #expect(read.verifiedHosts.isEmpty)
        let messages = read.findings.filter { $0.rule == .dalQ2 && $0.severity == .error }.map(\.message)
        #expect(messages.contains { $0.contains("mixes other schemes") && $0.contains("a.example") })
        #expect(messages.contains { $0.contains("BROWSABLE") && $0.contains("b.example") })
        #expect(messages.contains { $0.contains("never verified") })
    }

    @Test("DAL-Q2: a @string/ host is resolved from the strings file, and named when it is not there")
    func stringHost() throws {
        let manifest = Self.manifest(Self.filter(data: #"<data android:scheme="https" android:host="@string/host"/>"#))
        let resolved = try AndroidManifest.parse(
            manifest, strings: Array(#"<resources><string name="host">Shop.Example</string></resources>"#.utf8))
        #expect(resolved.verifiedHosts == ["shop.example"])
        let unresolved = try AndroidManifest.parse(manifest)
        #expect(unresolved.verifiedHosts.isEmpty)
        #expect(unresolved.findings.contains { $0.message.contains("@string/host") && $0.severity == .warning })
    }

    @Test(
        "DAL-Q5: aapt2 unescaping: escaped quotes kept, unescaped quotes dropped, white space collapsed, \\u, apostrophes",
        arguments: [
            (#"  [{ \"include\":  \"https://a/\" }]  "#, #"[{ "include": "https://a/" }]"#),
            (#""  keep   spaces  ""#, "  keep   spaces  "), (#"a\nb\tc\u0041\@\?\\"#, "a\nb\tcA@?\\"),
            (#"it\'s"#, "it's"), (#""it's""#, "it's"),
        ])
    func unescape(written: String, compiled: String) throws {
        #expect(try AndroidStringResources.unescape(written).get() == compiled)
    }

    @Test("DAL-Q5: an unescaped apostrophe and a short \\u escape do not compile")
    func unescapeFailures() {
        #expect((try? AndroidStringResources.unescape("it's").get()) == nil)
        #expect((try? AndroidStringResources.unescape(#"\u12"#).get()) == nil)
    }

    @Test("DAL-Q5: the usual include compiles to a list of one include of the site's assetlinks.json; no finding")
    func goodAssetStatements() throws {
        let read = try AndroidManifest.parse(
            Self.manifest("", meta: Self.meta),
            strings: Self.strings(#"[{\"include\": \"https://example.com/.well-known/assetlinks.json\"}]"#))
        #expect(read.assetStatements == #"[{"include": "https://example.com/.well-known/assetlinks.json"}]"#)
        #expect(read.assetStatementIncludes.map(\.description) == ["https://example.com/.well-known/assetlinks.json"])
        #expect(read.findings.filter { $0.rule == .dalQ5 || $0.rule == .dalI1 }.isEmpty, "\(read.findings)")
    }

    @Test(
        "DAL-Q5, DAL-I1: unescaped quotes, a missing include key, http, another path and a port are findings",
        arguments: [
            (#"[{"include": "https://example.com/.well-known/assetlinks.json"}]"#, "quotes were dropped"),
            (#"[{ \"https://example.com/.well-known/assetlinks.json\" }]"#, "not a statement list"),
            (#"[{\"include\": \"http://example.com/.well-known/assetlinks.json\"}]"#, "not https"),
            (#"[{\"include\": \"https://example.com/assetlinks.json\"}]"#, "not a site's /.well-known/assetlinks.json"),
            (#"[{\"include\": \"https://example.com:22320/.well-known/assetlinks.json\"}]"#, "with a port"),
            ("[]", "empty list"), ("it's", "does not compile"),
        ])
    func badAssetStatements(written: String, expected: String) throws {
        let read = try AndroidManifest.parse(Self.manifest("", meta: Self.meta), strings: Self.strings(written))
        #expect(read.findings.contains { $0.message.contains(expected) }, "\(read.findings)")
    }

    @Test("DAL-Q5: no asset_statements meta-data is a note; a missing string an error")
    func missingAssetStatements() throws {
        let none = try AndroidManifest.parse(Self.manifest(""))
        #expect(none.findings.contains { $0.rule == .dalQ5 && $0.severity == .note })
        let missing = try AndroidManifest.parse(
            Self.manifest("", meta: Self.meta), strings: Array("<resources/>".utf8))
        #expect(missing.findings.contains { $0.rule == .dalQ5 && $0.severity == .error })
    }

    @Test("DAL-Q2: a file that is not a manifest or resources document is malformedInput")
    func wrongRoots() {
        #expect(throws: SWCredError.self) { try AndroidManifest.parse(Array("<resources/>".utf8)) }
        #expect(throws: SWCredError.self) {
            try AndroidManifest.parse(Self.manifest(""), strings: Array("<manifest/>".utf8))
        }
    }
}
