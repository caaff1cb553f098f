import Foundation
import SWCredAssociation
import SWCredCore
import Testing

/// The statement-list reader, the linter and the per-verifier verdicts (asset-links.md §1).
@Suite("Asset links")
struct AssetLinksTests {
    static let print1 =
        "10:39:38:EE:45:37:E5:9E:8E:E7:92:F6:54:50:4F:B8:34:6F:C6:B3:46:D0:BB:C4:41:5F:C3:39:FC:FC:8E:C1"
    static let print2 =
        "5B:61:3A:0C:21:77:9A:1E:8D:44:F0:09:B2:6C:13:D8:7E:AF:52:33:90:CC:18:6B:E4:07:F1:2A:5D:86:C9:3E"
    static let site = AssetLinksSite(scheme: "https", host: "example.com")
    static let app = AndroidAppIdentity(packageName: "com.example.app", fingerprints: [print1])

    static func statement(
        _ relations: [String] = ["delegate_permission/common.handle_all_urls"], app: String = "com.example.app",
        prints: [String] = [print1]
    ) -> String {
        let list = relations.map { "\"\($0)\"" }.joined(separator: ",")
        let fingerprints = prints.map { "\"\($0)\"" }.joined(separator: ",")
        return
            #"{"relation":[\#(list)],"target":{"namespace":"android_app","package_name":"\#(app)","sha256_cert_fingerprints":[\#(fingerprints)]}}"#
    }

    /// Includes served from a table.
    struct Table: AssetLinksIncludeSource {
        var bodies: [String: String]
        func statementList(at url: AssetLinksURL) async -> AssetLinksFetch {
            bodies[url.description].map { .body(Array($0.utf8)) } ?? .failed(.fetchError, "404 Not Found")
        }
    }

    /// Both verifiers' verdicts on `handle_all_urls` for the test app.
    static func verdicts(
        _ json: String, includes: [String: String] = [:],
        relation: AssetLinksRelation = .handleAllURLs
    ) async throws -> [AssetLinksVerifier: AssetLinksVerdict] {
        let verdicts = await AssetLinksResolver.verdicts(
            .body(Array(json.utf8)), site: site, relation: relation, app: try #require(app),
            includes: Table(bodies: includes))
        #expect(verdicts.map(\.verifier) == [.google, .android])
        return Dictionary(uniqueKeysWithValues: verdicts.map { ($0.verifier, $0) })
    }

    static func lint(_ json: String) -> [LintFinding] { AssetLinksLinter().lint(Array(json.utf8)) }

    @Test("DAL-S3: relations are kind/detail in [a-z0-9_.]; a second slash, upper case and blanks are refused")
    func relations() throws {
        #expect(try AssetLinksRelation.parse("delegate_permission/common.get_login_creds").get() == .getLoginCreds)
        #expect(
            try AssetLinksRelation.parse("navigate/yellow_brick_road").get().description == "navigate/yellow_brick_road"
        )
        for (text, problem) in [
            ("delegate_permission/common.handle_all_urls/x", AssetLinksRelation.Problem.notKindSlashDetail),
            ("delegate_permission", .notKindSlashDetail), ("Delegate_permission/x", .invalidKind),
            ("/x", .invalidKind), ("delegate_permission/", .invalidDetail), ("delegate_permission/a b", .invalidDetail),
        ] {
            #expect(throws: problem) { try AssetLinksRelation.parse(text).get() }
        }
        let findings = Self.lint(
            #"[{"relation":["delegate_permission/common.handle_all_URLS"],"target":{"namespace":"web","site":"https://a.example"}}]"#
        )
        #expect(findings.first?.rule == .dalS3)
        #expect(findings.first?.path == "[0].relation[0]")
        #expect(findings.first?.id == "SWC203")
    }

    @Test("DAL-S5: a site is one scheme, host and port; case, a trailing dot and the default port change nothing")
    func sites() throws {
        let parsed = try AssetLinksSite.parse("HTTPS://Example.COM.:443").get()
        #expect(parsed.site == Self.site)
        #expect(parsed.explicitDefaultPort)
        #expect(
            try AssetLinksSite.parse("https://example.com:8443").get().site.description == "https://example.com:8443")
        for (text, problem) in [
            ("", AssetLinksSite.Problem.empty), ("mailto://a@example.com", .nonHTTP),
            ("https://u:p@example.com", .loginInfo),
            ("https://example.com?a", .query), ("https://example.com#a", .fragment), ("https://example.com/app", .path),
        ] {
            #expect(throws: problem) { try AssetLinksSite.parse(text).get() }
        }
        #expect((try? AssetLinksSite.parse("https://example.com:99999").get()) == nil)
        #expect((try? AssetLinksSite.parse("example.com").get()) == nil)
    }

    @Test("DAL-S5: a trailing '/' on a site: Google's API refuses the statement, an Android device accepts it")
    func trailingSlash() async throws {
        let json =
            #"[{"relation":["delegate_permission/common.get_login_creds"],"target":{"namespace":"web","site":"https://shop.example/"}}]"#
        let shop = AssetLinksTarget.web(AssetLinksSite(scheme: "https", host: "shop.example"))
        var linked: [AssetLinksVerifier: Bool] = [:]
        for verifier in AssetLinksVerifier.allCases {
            let resolution = await AssetLinksResolver(verifier: verifier).resolve(
                .body(Array(json.utf8)), source: .web(Self.site), includes: NoAssetLinksIncludes())
            linked[verifier] = resolution.check(.getLoginCreds, target: shop).linked
        }
        #expect(linked == [.google: false, .android: true])
        let findings = Self.lint(json)
        #expect(findings.map(\.rule) == [.dalS5])
        #expect(findings.first?.severity == .warning)
    }

    @Test("DAL-S6: fingerprints are upper-case colon hex; lower case fails on both verifiers")
    func lowercaseFingerprint() async throws {
        let json = "[\(Self.statement(prints: [Self.print1.lowercased()]))]"
        let verdicts = try await Self.verdicts(json)
        #expect(verdicts[.google]?.linked == false)
        #expect(verdicts[.android]?.linked == false)
        #expect(verdicts[.android]?.reason.contains("lower case") == true)
        let findings = Self.lint(json)
        #expect(
            findings.contains {
                $0.rule == .dalS6 && $0.severity == .error && $0.path == "[0].target.sha256_cert_fingerprints[0]"
            })
    }

    @Test("DAL-S6: a SHA-1 fingerprint is named as such")
    func sha1Fingerprint() {
        let sha1 = "DA:39:A3:EE:5E:6B:4B:0D:32:55:BF:EF:95:60:18:90:AF:D8:07:09"
        let finding = Self.lint("[\(Self.statement(prints: [sha1]))]").first { $0.rule == .dalS6 }
        #expect(finding?.message.contains("SHA-1") == true)
        #expect(throws: SWCredError(.invalidAndroidApp, "")) { try AndroidAppIdentity.parse("com.example.app=\(sha1)") }
    }

    @Test("DAL-Q1: the wrong fingerprint (Play App Signing) is not linked, and the reason names both keys")
    func wrongFingerprint() async throws {
        let verdicts = try await Self.verdicts("[\(Self.statement(prints: [Self.print2]))]")
        for verdict in verdicts.values {
            #expect(!verdict.linked)
            #expect(verdict.reason.contains(Self.print2) && verdict.reason.contains(Self.print1))
        }
        let right = try await Self.verdicts("[\(Self.statement(prints: [Self.print2, Self.print1]))]")
        #expect(right.values.allSatisfy { $0.linked })
    }

    @Test("DAL-Q1: the target listed for another relation is not linked, and the reason says which relation")
    func wrongRelation() async throws {
        let verdicts = try await Self.verdicts("[\(Self.statement(["delegate_permission/common.get_login_creds"]))]")
        #expect(verdicts[.google]?.linked == false)
        #expect(verdicts[.google]?.reason.contains("listed for delegate_permission/common.get_login_creds") == true)
    }

    @Test("DAL-S7: one malformed element: Google skips it and links, an Android 12+ device fails the host")
    func malformedElement() async throws {
        let bad =
            #"{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"ios_app","appid":"1"}}"#
        let json = "[\(Self.statement()), \(bad)]"
        let verdicts = try await Self.verdicts(json)
        #expect(verdicts[.google]?.linked == true)
        #expect(verdicts[.android]?.linked == false)
        #expect(verdicts[.android]?.reason.contains("DAL-S7") == true)
        #expect(Self.lint(json).map(\.rule).filter { $0 != .dalQ4 } == [.dalS4, .dalS7])
        // An element without a target is skipped by both, and the host still verifies on a device.
        let skipped = try await Self.verdicts("[\(Self.statement()), {\"relation\": []}]")
        #expect(skipped.values.allSatisfy { $0.linked })
    }

    @Test("DAL-S1: not an array, not strict JSON, a byte-order mark, too deep: malformedAssetLinks")
    func wholeFile() {
        for text in [#"{"relation":[]}"#, "[{}", "[1,]", "\u{FEFF}[]", "42", String(repeating: "[", count: 100_000)] {
            #expect(throws: SWCredError(.malformedAssetLinks, "")) {
                try AssetLinksStatementList.parse(Array(text.utf8))
            }
            #expect(Self.lint(text).map(\.rule) == [.dalS1])
        }
        #expect(Self.lint("[]").map(\.rule) == [.dalS1])
    }

    @Test(
        "DAL-F3, DAL-I4: hostile lists end with named problems: 10 MB, 4,000 repeats, 10,001 elements, a self-include")
    func hostile() async throws {
        let huge = [UInt8](repeating: UInt8(ascii: " "), count: 10 << 20)
        #expect(throws: SWCredError(.malformedAssetLinks, "")) { try AssetLinksStatementList.parse(huge) }
        let many = "[" + Array(repeating: Self.statement(), count: 4_000).joined(separator: ",") + "]"
        #expect(Self.lint(many).filter { $0.rule == .dalS9 }.count == 3_999)
        let tooMany = "[" + Array(repeating: "{}", count: 10_001).joined(separator: ",") + "]"
        #expect(throws: SWCredError(.malformedAssetLinks, "")) {
            try AssetLinksStatementList.parse(Array(tooMany.utf8))
        }
        let loop = #"[{"include":"https://example.com/.well-known/assetlinks.json"}]"#
        let verdicts = try await Self.verdicts(
            loop, includes: ["https://example.com/.well-known/assetlinks.json": loop])
        #expect(verdicts[.google]?.linked == false)
        #expect(verdicts[.google]?.reason.contains("Fetch budget exhausted") == true)
    }

    @Test("DAL-F3, DAL-F5: a body over 1 MiB and an HTML page are refused with their rule")
    func sizeAndHTML() {
        let big = "[" + String(repeating: " ", count: 1 << 20) + "]"
        #expect(Self.lint(big).map(\.rule) == [.dalF3])
        #expect(Self.lint("<!doctype html><html></html>").map(\.rule) == [.dalF5])
        #expect(Self.lint("<!doctype html>").first?.help.contains("rewrite") == true)
    }

    @Test("DAL-S8, DAL-S9: placeholder and repeated fingerprints, extra keys on web targets")
    func placeholders() {
        let zeros = Array(repeating: "00", count: 32).joined(separator: ":")
        let docs = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
        let findings = Self.lint(
            "[\(Self.statement(prints: [zeros, docs, Self.print1, Self.print1])),"
                + #"{"relation":["delegate_permission/common.get_login_creds"],"target":{"namespace":"web","site":"https://a.example","sha256_cert_fingerprints":null}}]"#
        )
        #expect(
            findings.filter { $0.rule == .dalS8 }.map(\.path) == [
                "[0].target.sha256_cert_fingerprints[0]", "[0].target.sha256_cert_fingerprints[1]",
            ])
        #expect(
            findings.filter { $0.rule == .dalS9 }.map(\.path) == [
                "[0].target.sha256_cert_fingerprints[3]", "[1].target.sha256_cert_fingerprints",
            ])
        #expect(!Self.lint("[\(Self.statement(prints: [Self.print1]))]").contains { $0.severity != .note })
    }

    @Test("DAL-Q4: an app with handle_all_urls but not get_login_creds gets a note")
    func bothRelations() {
        #expect(Self.lint("[\(Self.statement())]").map(\.rule) == [.dalQ4])
        let both = ["delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds"]
        #expect(Self.lint("[\(Self.statement(both))]").isEmpty)
    }

    @Test("DAL-S2: dynamic App Link components of the wrong shape are warnings; well-formed ones are read")
    func dynamicComponents() throws {
        let json =
            #"[{"relation":["delegate_permission/common.handle_all_urls"],"#
            + #""relation_extensions":{"delegate_permission/common.handle_all_urls":{"dynamic_app_link_components":"#
            + #"[{"/":"/shop/*","?":{"ref":"*"},"exclude":false},{"/":3,"colour":"red"}]}},"#
            + #""target":{"namespace":"android_app","package_name":"com.example.app","sha256_cert_fingerprints":[""#
            + Self.print1 + #""]}}]"#
        let findings = Self.lint(json).filter { $0.rule == .dalS2 }
        #expect(
            findings.map(\.path).sorted() == [
                #"[0].relation_extensions["delegate_permission/common.handle_all_urls"].dynamic_app_link_components[1].colour"#,
                #"[0].relation_extensions["delegate_permission/common.handle_all_urls"].dynamic_app_link_components[1]["/"]"#,
            ])
        let list = try AssetLinksStatementList.parse(Array(json.utf8))
        guard case .statement(let statement) = list.elements.first?.google else { Issue.record("no statement"); return }
        #expect(statement.dynamicComponents.first == AssetLinksDynamicComponent(path: "/shop/*", query: ["ref": "*"]))
    }

    @Test("DAL-I3: an include inside an include counts for Google's API and is ignored on a device")
    func includeDepth() async throws {
        let json = #"[{"include":"https://example.com/one.json"}]"#
        let includes = [
            "https://example.com/one.json": #"[{"include":"https://example.com/two.json"}]"#,
            "https://example.com/two.json": "[\(Self.statement())]",
        ]
        let verdicts = try await Self.verdicts(json, includes: includes)
        #expect(verdicts[.google]?.linked == true)
        #expect(verdicts[.android]?.linked == false)
        let oneLevel = try await Self.verdicts(#"[{"include":"https://example.com/two.json"}]"#, includes: includes)
        #expect(oneLevel.values.allSatisfy { $0.linked })
    }

    @Test("DAL-I4: an include cycle ends, is reported, and what was read still counts")
    func includeCycle() async throws {
        let json = #"[{"include":"https://example.com/a.json"}]"#
        let includes = [
            "https://example.com/a.json": #"[{"include":"https://example.com/b.json"},"# + Self.statement() + "]",
            "https://example.com/b.json": #"[{"include":"https://example.com/a.json"}]"#,
        ]
        let resolution = await AssetLinksResolver(verifier: .google).resolve(
            .body(Array(json.utf8)), source: .web(Self.site), includes: Table(bodies: includes))
        #expect(resolution.check(.handleAllURLs, app: try #require(Self.app)).linked)
        #expect(resolution.problems.map(\.code) == [.fetchBudgetExhausted])
        #expect(resolution.problems.first?.rule == .dalI4)
    }

    @Test("DAL-I1: an https site's http include is refused, and lint says so")
    func insecureInclude() async throws {
        let json = #"[{"include":"http://example.com/list.json"}]"#
        let verdicts = try await Self.verdicts(
            json, includes: ["http://example.com/list.json": "[\(Self.statement())]"])
        #expect(!verdicts.values.contains { $0.linked })
        #expect(Self.lint(json).map(\.rule) == [.dalI1])
    }

    @Test("DAL-Q4: PKG=FP parses, normalises apksigner's form, and names bad input")
    func androidAppParsing() throws {
        let app = try AndroidAppIdentity.parse(
            "com.example.app=\(Self.print1.lowercased().replacingOccurrences(of: ":", with: "")),\(Self.print2)")
        #expect(app.packageName == "com.example.app")
        #expect(app.fingerprints == [Self.print1, Self.print2])
        for bad in [
            "com.example.app", "com example=\(Self.print1)", "com.example.app=", "com.example.app=AA:BB",
            "1x=\(Self.print1)",
        ] {
            #expect(throws: SWCredError(.invalidAndroidApp, "")) { try AndroidAppIdentity.parse(bad) }
        }
    }

    @Test("DAL-Q4: the apk-key-hash origin is base64url without padding of the fingerprint octets")
    func apkKeyHash() throws {
        // python3: base64.urlsafe_b64encode(bytes.fromhex(fp.replace(':',''))).rstrip(b'=')
        #expect(
            AndroidAppIdentity.apkKeyHashOrigin(fingerprint: Self.print1)
                == "android:apk-key-hash:EDk47kU35Z6O55L2VFBPuDRvxrNG0LvEQV_DOfz8jsE")
        #expect(
            AndroidAppIdentity.apkKeyHashOrigin(
                fingerprint:
                    "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5")
                == "android:apk-key-hash:FG3pg8VzBlDY7rmVLzT8ZBagg0LmHb6oigSWsj_PROU")
        #expect(AndroidAppIdentity.apkKeyHashOrigin(fingerprint: "AA:BB") == nil)
        #expect(try #require(Self.app).apkKeyHashOrigins.count == 1)
    }

    @Test("DAL-S1: a statement list is told from an AASA file by its content")
    func detection() {
        #expect(AssetLinksLinter.looksLikeStatementList(Array("[\(Self.statement())]".utf8)))
        #expect(AssetLinksLinter.looksLikeStatementList(Array(" [{\"include\": \"https://a\"},]".utf8)))
        #expect(!AssetLinksLinter.looksLikeStatementList(Array(#"{"applinks":{}}"#.utf8)))
        #expect(!AssetLinksLinter.looksLikeStatementList(Array(#"[{"applinks":{}}]"#.utf8)))
    }
}
