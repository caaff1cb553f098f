import Foundation
import Testing

/// `swcred generate` through the real binary (cli.md `generate`; PW-2, PW-3, PW-5, PW-6, PW-7).
@Suite("swcred generate")
struct GenerateCommandTests {
    static let strongShape = try? NSRegularExpression(pattern: "^[a-zA-Z0-9]{6}-[a-zA-Z0-9]{6}-[a-zA-Z0-9]{6}$")
    static let legacyShape = try? NSRegularExpression(
        pattern: "^[a-hk-zA-HJ-NP-Z2-9]{3}-[a-hk-zA-HJ-NP-Z2-9]{3}-[a-hk-zA-HJ-NP-Z2-9]{3}-[a-hk-zA-HJ-NP-Z2-9]{3}$")

    static func matches(_ regex: NSRegularExpression?, _ text: String) -> Bool {
        guard let regex else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    static func jsonLines(_ result: CLI.Result) throws -> [[String: Any]] {
        try result.stdout.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw CLI.CLIError("not a JSON object: \(line)")
            }
            return object
        }
    }

    static var quirksFile: String { CLI.fixtures.appendingPathComponent("quirks/password-rules.json").path }

    @Test("PW-3.3: text output is one strong password per line")
    func textStrong() async throws {
        let result = try await CLI.run(["generate", "--count", "4"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines.allSatisfy { Self.matches(Self.strongShape, $0) })
        #expect(Set(lines).count == 4)
        // PW-6.1: the entropy is reported once, on stderr.
        #expect(result.stderr.contains("71.88 bits"))
    }

    @Test("PW-2: --style legacy prints SecCreateSharedWebCredentialPassword's format")
    func textLegacy() async throws {
        let result = try await CLI.run(["generate", "--style", "legacy", "--count", "20"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 20)
        #expect(lines.allSatisfy { Self.matches(Self.legacyShape, $0) })
    }

    @Test("PW-6.1: JSON lines carry schema, password, entropyBits (two decimals) and rules, and follow the schema")
    func jsonLinesOutput() async throws {
        let result = try await CLI.run(["generate", "--format", "json", "--count", "3"])
        #expect(result.status == 0)
        let lines = try Self.jsonLines(result)
        #expect(lines.count == 3)
        var validator = JSONSchemaValidator.repository
        for line in lines {
            #expect(line["schema"] as? String == "swcred/1")
            #expect(line["entropyBits"] as? Double == 71.88)
            #expect(line["rules"] is NSNull)
            #expect(line["secret"] as? Bool == true)
            #expect(line["count"] as? String == "4347975615324244531200")
            #expect(Self.matches(Self.strongShape, line["password"] as? String ?? ""))
            #expect(try validator.validate(line, against: "generate") == [])
        }
        let legacy = try Self.jsonLines(try await CLI.run(["generate", "--format", "json", "--style", "legacy"]))
        #expect(legacy.first?["entropyBits"] as? Double == 69.06)
    }

    @Test("PW-5: --rules adapts the password and reports the canonical rules")
    func rulesOption() async throws {
        let rules =
            "required: upper; required: digit; allowed: lower, [-]; minlength: 20; maxlength: 24; max-consecutive: 2;"
        let result = try await CLI.run(["generate", "--format", "json", "--rules", rules, "--count", "5"])
        #expect(result.status == 0)
        for line in try Self.jsonLines(result) {
            #expect(line["style"] as? String == "strong")
            #expect(
                line["rules"] as? String
                    == "required: upper; required: digit; allowed: upper, lower, digit, [-]; max-consecutive: 2; minlength: 20; maxlength: 24;"
            )
            #expect(Self.matches(Self.strongShape, line["password"] as? String ?? ""))
        }
    }

    @Test("PW-6.4: a weak rule set still generates, with a warning on stderr only")
    func lowEntropyWarning() async throws {
        let result = try await CLI.run(["generate", "--format", "json", "--rules", "allowed: digit; maxlength: 6;"])
        #expect(result.status == 0)
        let line = try #require(try Self.jsonLines(result).first)
        #expect((line["password"] as? String)?.count == 6)
        #expect(line["entropyBits"] as? Double == 19.93)
        #expect(result.stderr.contains("below 64"))
    }

    @Test("PW-4.6: malformed --rules exit 65 with malformedRules and print nothing on stdout")
    func malformedRules() async throws {
        let result = try await CLI.run([
            "generate", "--format", "json", "--rules", "minlength: 8; max-repeat: 2; required: digit",
        ])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        let error = try result.errorJSON()
        #expect(error["code"] as? String == "malformedRules")
        let text = try await CLI.run(["generate", "--rules", "minlength: 8 ; maxlength: 10"])
        #expect(text.status == 65)
        #expect(text.stderr.contains("malformedRules"))
    }

    @Test("PW-1.5: infeasible rules exit 65 with infeasible")
    func infeasibleRules() async throws {
        let result = try await CLI.run([
            "generate", "--format", "json", "--rules", "required: [a]; required: [b]; required: [c]; maxlength: 2;",
        ])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(try result.errorJSON()["code"] as? String == "infeasible")
    }

    @Test("PW-7.2: --domain/--quirks applies the quirk of the domain and its subdomains")
    func quirksLookup() async throws {
        let result = try await CLI.run([
            "generate", "--format", "json", "--domain", "WWW.Apple.com.", "--quirks", Self.quirksFile,
        ])
        #expect(result.status == 0)
        let line = try #require(try Self.jsonLines(result).first)
        #expect(
            line["rules"] as? String
                == "required: lower; required: upper; required: digit; allowed: ascii-printable; minlength: 8; maxlength: 63;"
        )
        #expect(result.stderr.contains("apple.com"))

        let uncovered = try await CLI.run([
            "generate", "--format", "json", "--domain", "notapple.com", "--quirks", Self.quirksFile,
        ])
        #expect(uncovered.status == 0)
        #expect(try Self.jsonLines(uncovered).first?["rules"] is NSNull)
    }

    @Test("PW-7.1: a missing quirks file exits 66; a malformed one 65 naming the file")
    func quirksErrors() async throws {
        let missing = try await CLI.run(["generate", "--domain", "apple.com", "--quirks", "/nonexistent/password-rules.json"])
        #expect(missing.status == 66)
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("bad.json")
        try Data(#"{"apple.com": {"password-rules": 12}}"#.utf8).write(to: bad)
        let result = try await CLI.run(["generate", "--format", "json", "--domain", "apple.com", "--quirks", bad.path])
        #expect(result.status == 65)
        let error = try result.errorJSON()
        #expect(error["code"] as? String == "malformedQuirks")
        #expect((error["message"] as? String)?.contains("bad.json") == true)
        #expect((error["message"] as? String)?.contains("password-rules") == true)
    }

    @Test("usage errors exit 64: --count out of range, --rules with --quirks, --domain alone")
    func usageErrors() async throws {
        #expect(try await CLI.run(["generate", "--count", "0"]).status == 64)
        #expect(
            try await CLI.run(["generate", "--rules", "minlength: 8;", "--domain", "a.com", "--quirks", Self.quirksFile])
                .status == 64)
        #expect(try await CLI.run(["generate", "--domain", "a.com"]).status == 64)
        #expect(try await CLI.run(["generate", "--style", "legacy", "--rules", "minlength: 8;"]).status == 64)
    }

    @Test("PW-1.1: a deterministic test seed is reproducible and marked not secret")
    func deterministicSeed() async throws {
        let a = try await CLI.run(["generate", "--format", "json", "--insecure-test-seed", "42", "--count", "2"])
        let b = try await CLI.run(["generate", "--format", "json", "--insecure-test-seed", "42", "--count", "2"])
        #expect(a.status == 0 && a.stdout == b.stdout)
        #expect(try Self.jsonLines(a).allSatisfy { $0["secret"] as? Bool == false })
        #expect(a.stderr.contains("NOT SECRET"))
    }
}

extension GenerateCommandTests {
    @Test("PW-3.5: --block-list keeps listed substrings out and marks the entropy as an upper bound")
    func blockList() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let list = folder.appendingPathComponent("block.txt")
        try Data("AAA\n  bbb  \n\n".utf8).write(to: list)
        let result = try await CLI.run([
            "generate", "--format", "json", "--rules", "allowed: [ab]; minlength: 8; maxlength: 8;", "--count", "50",
            "--block-list", list.path,
        ])
        #expect(result.status == 0)
        for line in try Self.jsonLines(result) {
            let password = line["password"] as? String ?? "aaa"
            #expect(!password.contains("aaa") && !password.contains("bbb"))
            #expect(line["entropyIsUpperBound"] as? Bool == true)
        }
        #expect(result.stderr.contains("upper bound"))
        #expect(try await CLI.run(["generate", "--block-list", folder.appendingPathComponent("missing").path]).status == 66)
    }
}
