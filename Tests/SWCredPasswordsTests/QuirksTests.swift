import Foundation
import SWCredCore
import Testing

@testable import SWCredPasswords

@Suite("Quirks data (PW-7)")
struct QuirksTests {
    static func quirks(_ json: String) throws(SWCredError) -> PasswordRulesQuirks {
        try PasswordRulesQuirks(data: Data(json.utf8), name: "test.json")
    }

    static let sample = """
        {
          "example.com": {"password-rules": "minlength: 10;"},
          "a.example.com": {"password-rules": "minlength: 12;"},
          "exact.org": {"password-rules": "minlength: 14;", "exact-domain-match-only": true},
          "Upper.NET.": {"password-rules": "minlength: 16;", "future-key": 1}
        }
        """

    @Test("PW-7.2: a domain covers itself and its subdomains on label boundaries")
    func subdomains() throws {
        let q = try Self.quirks(Self.sample)
        #expect(q.match(host: "example.com")?.domain == "example.com")
        #expect(q.match(host: "www.example.com")?.domain == "example.com")
        #expect(q.match(host: "notexample.com") == nil)
        #expect(q.match(host: "b.example.com")?.domain == "example.com")
    }

    @Test("PW-7.2 Decision: the longest covering key wins")
    func longestKey() throws {
        let q = try Self.quirks(Self.sample)
        #expect(q.match(host: "a.example.com")?.domain == "a.example.com")
        #expect(q.match(host: "x.a.example.com")?.domain == "a.example.com")
    }

    @Test("PW-7.2: exact-domain-match-only applies to the key only; hosts are lower-cased, one trailing dot removed")
    func exactAndNormalisation() throws {
        let q = try Self.quirks(Self.sample)
        #expect(q.match(host: "exact.org")?.domain == "exact.org")
        #expect(q.match(host: "www.exact.org") == nil)
        #expect(q.match(host: "EXAMPLE.COM.")?.domain == "example.com")
        #expect(q.match(host: "upper.net")?.rules == "minlength: 16;")
    }

    @Test("PW-7.1: unknown keys inside an entry are warnings")
    func unknownKeysWarn() throws {
        let q = try Self.quirks(Self.sample)
        #expect(q.warnings.count == 1)
        #expect(q.warnings.first?.contains("future-key") == true)
    }

    @Test("PW-7.1 Decision: a key repeated in one object is refused, naming the key; nesting past 16 levels is refused")
    func repeatedKeysAndDepth() throws {
        for (json, named) in [
            (#"{"a.com": {"password-rules": "minlength: 8;"}, "a.com": {"password-rules": "minlength: 20;"}}"#, "a.com"),
            (#"{"a.com": {"password-rules": "minlength: 8;", "password-rules": "minlength: 20;"}}"#, "password-rules"),
            (String(repeating: "[", count: 17) + String(repeating: "]", count: 17), ""),
        ] {
            #expect {
                _ = try Self.quirks(json)
            } throws: { error in
                guard let error = error as? SWCredError else { return false }
                return error.code == .malformedQuirks && error.message.contains("test.json")
                    && (named.isEmpty || error.message.contains(named))
            }
        }
        let groups = #"[{"shared": ["a.com", "b.com"], "shared": ["c.com"]}]"#
        #expect(throws: SWCredError(.malformedQuirks, "")) {
            try SharedCredentialsQuirks(data: Data(groups.utf8), name: "shared.json")
        }
    }

    @Test("PW-7.1: a wrong top-level type or entry type fails with the file name and the offending key")
    func malformedFiles() throws {
        for (json, key) in [
            ("[1, 2]", ""), ("{\"a.com\": 3}", "a.com"), ("{\"a.com\": {\"password-rules\": 1}}", "password-rules"),
            ("{\"a.com\": {}}", "password-rules"),
            (
                "{\"a.com\": {\"password-rules\": \"x\", \"exact-domain-match-only\": \"yes\"}}",
                "exact-domain-match-only"
            ),
            ("not json", ""),
        ] {
            do {
                _ = try Self.quirks(json)
                Issue.record("\(json) loaded")
            } catch {
                #expect(error.code == .malformedQuirks)
                #expect(error.message.contains("test.json"))
                if !key.isEmpty { #expect(error.message.contains(key)) }
            }
        }
    }

    @Test("PW-7.1: a missing file is fileNotFound; an oversized one limitExceeded")
    func fileErrors() throws {
        #expect(throws: SWCredError(.fileNotFound, "")) {
            try PasswordRulesQuirks(contentsOfFile: "/nonexistent/quirks.json")
        }
        #expect(throws: SWCredError(.limitExceeded, "")) {
            try PasswordRulesQuirks(contentsOfFile: QuirksData.bundledSample.path, maximumSize: 10)
        }
    }

    @Test("PW-7.3 Decision: explicit rules > declared rules > quirk > none")
    func precedence() throws {
        let q = try Self.quirks(Self.sample)
        let explicit = try PasswordRules.resolve(
            explicit: "minlength: 20;", declared: "minlength: 30;", quirks: q, host: "example.com")
        #expect(explicit.origin == .explicit && explicit.rules?.minLength == 20)
        let declared = try PasswordRules.resolve(declared: "minlength: 30;", quirks: q, host: "example.com")
        #expect(declared.origin == .declared && declared.rules?.minLength == 30)
        let quirk = try PasswordRules.resolve(quirks: q, host: "www.example.com")
        #expect(quirk.origin == .quirk(domain: "example.com") && quirk.rules?.minLength == 10)
        let none = try PasswordRules.resolve(quirks: q, host: "other.org")
        #expect(none.origin == .none && none.rules == nil)
    }

    @Test("the bundled sample loads and carries Apple's MIT notice")
    func bundledSample() throws {
        let q = try PasswordRulesQuirks(contentsOfFile: QuirksData.bundledSample.path)
        #expect(q.entries.count == 8)
        #expect(q.warnings.isEmpty)
        let license = try String(
            contentsOf: QuirksData.bundledSample.deletingLastPathComponent().appendingPathComponent("LICENSE.md"),
            encoding: .utf8)
        #expect(license.contains("Apple Inc."))
    }

    @Test(
        "PW-7.2 with Apple's data: every entry parses and looks up",
        .enabled(if: QuirksData.available, "Apple's quirks data (../shared/data) is absent"))
    func appleData() throws {
        guard let file = QuirksData.passwordRulesFile else { return }
        let q = try PasswordRulesQuirks(contentsOfFile: file.path)
        #expect(q.warnings.isEmpty)
        for domain in q.entries.keys {
            #expect(q.match(host: domain)?.domain == domain)
            #expect(q.match(host: "sub." + domain) != nil)
        }
    }
}
