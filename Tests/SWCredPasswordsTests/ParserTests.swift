import SWCredCore
import Testing

@testable import SWCredPasswords

@Suite("Password Rules parser quirks (PW-4)")
struct ParserTests {
    static func text(_ input: String) throws -> String {
        try PasswordRules.parse(input).description
    }

    @Test(
        "PW-4.6: an unknown property discards the whole input",
        arguments: [
            "minlength: 8; max-repeat: 2; required: digit",
            "minlength 8",
            "minlength: 8x; maxlength: 10",
            "required: upper; required: A",
            "minLength: 8",
        ])
    func wholeInputDiscarded(_ input: String) throws {
        let rules = try PasswordRules.parse(input)
        #expect(rules.description == "allowed: ascii-printable;")
        #expect(!rules.diagnostics.isEmpty)
    }

    @Test("PW-4.6: white space between an integer and ';' drops only that property")
    func whitespaceBeforeSemicolon() throws {
        #expect(try Self.text("minlength: 8 ; maxlength: 10") == "allowed: ascii-printable; maxlength: 10;")
    }

    @Test("PW-4.6: a value of 0 and an empty value drop only that property")
    func zeroAndEmpty() throws {
        #expect(try Self.text("minlength: 0; maxlength: 5") == "allowed: ascii-printable; maxlength: 5;")
        #expect(try Self.text("required: ; required: upper") == "required: upper; allowed: upper;")
    }

    @Test("PW-4.6: a property position starting with a non-letter ends parsing and keeps the rest")
    func stopsAtNonLetter() throws {
        let rules = try PasswordRules.parse("minlength: 8; 9")
        #expect(rules.description == "allowed: ascii-printable; minlength: 8;")
        #expect(rules.diagnostics.count == 1)
    }

    @Test("PW-4.6: minlength greater than maxlength is kept")
    func minAboveMaxKept() throws {
        #expect(
            try Self.text("minlength: 30; maxlength: 10") == "allowed: ascii-printable; minlength: 30; maxlength: 10;")
    }

    @Test("PW-4.3: without allowed, only the union of required classes is allowed")
    func allowedFromRequired() throws {
        #expect(
            try Self.text("required: upper; required: digit")
                == "required: upper; required: digit; allowed: upper, digit;")
    }

    @Test("PW-4.3: repeated limits keep the minimum, minlength the maximum, maxlength the minimum")
    func repeatedProperties() throws {
        let input =
            "max-consecutive: 5; max-consecutive: 3; minlength: 7; minlength: 23; maxlength: 40; maxlength: 30; max-repeating: 4; max-sequential: 6; max-repeating: 2"
        #expect(
            try Self.text(input)
                == "allowed: ascii-printable; max-consecutive: 3; max-repeating: 2; max-sequential: 6; minlength: 23; maxlength: 30;"
        )
    }

    @Test("PW-4.4: named classes are ASCII only; special is the 33 printable non-alphanumerics with space")
    func namedClasses() {
        #expect(ASCIISet.upper.count == 26 && ASCIISet.lower.count == 26 && ASCIISet.digit.count == 10)
        #expect(ASCIISet.special.count == 33 && ASCIISet.special.contains(UInt8(ascii: " ")))
        #expect(ASCIISet.asciiPrintable.count == 95)
        #expect(ASCIISet.upper.union(.lower).union(.digit).union(.special) == .asciiPrintable)
        #expect(CharacterClass.unicode.asciiSet == .asciiPrintable)
    }

    @Test("PW-4.5: custom classes: '-' only first, ']]' at the end, non-ASCII dropped, [] empty")
    func customClasses() throws {
        #expect(try PasswordRules.parse("required: [a-c]").required == [[.custom(Array("ac".utf8))]])
        #expect(try PasswordRules.parse("required: [-a]").required == [[.custom(Array("a-".utf8))]])
        #expect(try PasswordRules.parse("required: [abc]]").required == [[.custom(Array("abc]".utf8))]])
        #expect(try PasswordRules.parse("allowed: [供应A商B]").allowed == [.custom(Array("AB".utf8))])
        #expect(try PasswordRules.parse("required: []").required == [[]])
    }

    @Test("PW-4.7: canonicalisation: full classes collapse to names, first of unicode/ascii-printable wins")
    func canonicalisation() throws {
        let allLower = String(decoding: Array(UInt8(ascii: "a")...UInt8(ascii: "z")), as: UTF8.self)
        #expect(try Self.text("required: [\(allLower)], digit") == "required: lower, digit; allowed: lower, digit;")
        #expect(
            try Self.text("required: upper, lower, digit, special")
                == "required: ascii-printable; allowed: ascii-printable;")
        #expect(try Self.text("required: [*&^]; allowed: upper") == "required: [&*^]; allowed: upper, [&*^];")
        #expect(
            try Self.text("required: unicode; required: digit")
                == "required: unicode; required: digit; allowed: unicode;")
        #expect(try PasswordRules.parse("required: ascii-printable, unicode").required == [[.asciiPrintable]])
        #expect(try Self.text("required: UPPER, Lower") == "required: upper, lower; allowed: upper, lower;")
    }

    @Test("PW-4.8: the format-compliant form puts '-' first and ']' last in a custom class")
    func formatCompliant() throws {
        let rules = try PasswordRules.parse("required: [a]; required: [-]; required: []]; allowed: [z]")
        #expect(rules.description == "required: [a]; required: [-]; required: []]; allowed: [-az]];")
        #expect(try PasswordRules.parse(rules.description).rules == rules.rules)
    }

    @Test("PW-4.2: white space is space, tab, LF, FF, CR; rule names are case-sensitive")
    func whitespaceAndCase() throws {
        #expect(
            try Self.text(" \t\n\u{0C}\rminlength:\t12;\r\nmaxlength:\n20")
                == "allowed: ascii-printable; minlength: 12; maxlength: 20;")
        #expect(try Self.text("MINLENGTH: 12") == "allowed: ascii-printable;")
    }

    @Test("PW-4.6: max-repeating and max-sequential are accepted (pull request #1255)")
    func newerProperties() throws {
        let rules = try PasswordRules.parse("max-repeating: 2; max-sequential: 3;")
        #expect(rules.maxRepeating == 2 && rules.maxSequential == 3)
        #expect(rules.diagnostics.isEmpty)
    }

    @Test("parsers never trap: huge integers saturate, the size limit is enforced")
    func limits() throws {
        let huge = try PasswordRules.parse("minlength: 99999999999999999999999999999999;")
        #expect(huge.minLength == Int.max)
        #expect(throws: SWCredError(.limitExceeded, "")) {
            try PasswordRules.parse(String(repeating: "minlength: 8; ", count: 1000))
        }
        // Every prefix of a tricky string parses.
        let tricky = "required: [-a]]], upper,lower; allowed: [☃], digit ;max-consecutive:02;minlength:"
        for end in tricky.indices { _ = try PasswordRules.parse(String(tricky[..<end])) }
    }

    @Test("strict parsing (--rules) refuses any loss with malformedRules")
    func strictParsing() throws {
        #expect(throws: SWCredError(.malformedRules, "")) {
            try PasswordRules(validating: "minlength: 8 ; maxlength: 10")
        }
        #expect(throws: SWCredError(.malformedRules, "")) { try PasswordRules(validating: "required: [a-c]") }
        #expect(throws: SWCredError(.malformedRules, "")) { try PasswordRules(validating: "minlength: 0") }
        let ok = try PasswordRules(validating: "required: upper; required: digit; minlength: 20;")
        #expect(ok.description == "required: upper; required: digit; allowed: upper, digit; minlength: 20;")
    }
}

@Suite("Validating passwords (PW-4.9, PW-4.10)")
struct ValidationTests {
    static func errors(_ rules: String, _ password: String) throws -> [String] {
        try PasswordRules.parse(rules).violations(of: password).filter { $0.severity == .error }.map(\.rule)
    }

    @Test("PW-4.10: length in Unicode scalars, allowed characters, each required list")
    func basics() throws {
        #expect(try Self.errors("minlength: 4; maxlength: 5;", "abc") == ["minlength"])
        #expect(try Self.errors("minlength: 4; maxlength: 5;", "abcdef") == ["maxlength"])
        // Length counts scalars: "ééé1" is 4 long (its é are not printable ASCII, so not allowed).
        #expect(try Self.errors("minlength: 4; allowed: unicode;", "ééé1") == [])
        #expect(try Self.errors("minlength: 4;", "ééé1") == ["allowed"])
        #expect(try Self.errors("allowed: lower;", "abcD") == ["allowed"])
        #expect(try Self.errors("allowed: unicode;", "ab☃") == [])
        #expect(try Self.errors("required: upper; required: digit, [!];", "ABC") == ["required"])
        #expect(try Self.errors("required: upper; required: digit, [!];", "AB!") == [])
    }

    @Test("PW-4.9: max-repeating: aa passes 2, aaa does not; the last run counts")
    func repeating() throws {
        #expect(try Self.errors("max-repeating: 2;", "xaab") == [])
        #expect(try Self.errors("max-repeating: 2;", "xaaab") == ["max-repeating"])
        #expect(try Self.errors("max-repeating: 2;", "xbaaa") == ["max-repeating"])
    }

    @Test("PW-4.9: max-sequential: abc and 321 are runs of 3, within a–z, A–Z, 0–9 only")
    func sequential() throws {
        #expect(try Self.errors("max-sequential: 2;", "xabz") == [])
        #expect(try Self.errors("max-sequential: 2;", "xabc") == ["max-sequential"])
        #expect(try Self.errors("max-sequential: 2;", "x321") == ["max-sequential"])
        #expect(try Self.errors("max-sequential: 2;", "yzA") == [])  // z→A is not within a range
        // '9', ':', ';' are consecutive code points, but not all digits.
        #expect(try Self.errors("max-sequential: 2;", "9:;") == [])
        #expect(try Self.errors("max-sequential: 2;", "aba") == [])
    }

    @Test("PW-4.9 Decision: max-consecutive flags identical runs as errors, sequences as warnings")
    func consecutive() throws {
        let rules = try PasswordRules.parse("max-consecutive: 2;")
        #expect(rules.violations(of: "aaa").map(\.severity) == [.error])
        #expect(rules.violations(of: "abc").map(\.severity) == [.warning])
        #expect(rules.isSatisfied(by: "abc"))
        #expect(!rules.isSatisfied(by: "aaa"))
    }

    @Test("PW-2.3 Decision: legacy passwords with z or 2 are valid")
    func legacyAlphabetAccepted() {
        #expect(LegacyFormatTests.matchesFormat("abz-K7m-2vd-Wq3"))
        #expect(!LegacyFormatTests.matchesFormat("abz-Kxm-2vd-Wq2"))  // no digit from 3–9
    }
}
