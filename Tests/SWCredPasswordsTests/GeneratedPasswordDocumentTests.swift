import Foundation
import SWCredCore
import Testing
@testable import SWCredPasswords

/// ``GeneratedPassword/Document``: the JSON line of `swcred generate`.
@Suite("Generated password documents")
struct GeneratedPasswordDocumentTests {
    @Test("PW-6.1: the entropy is given with two decimals; no rules is null; |V| in decimal")
    func document() throws {
        let generated = try PasswordGenerator.generate(style: .strong)
        let document = GeneratedPassword.Document(generated)
        #expect(document.password == generated.password)
        #expect(document.entropyBits == (generated.entropyBits * 100).rounded() / 100)
        #expect(document.style == "strong")
        #expect(document.secret)
        #expect(document.count == generated.outputCount.description)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(document), as: UTF8.self)
        #expect(text.contains(#""rules":null"#))
        #expect(text.contains(#""entropyIsUpperBound":false"#))
    }

    @Test("PW-6.1: with rules, the rules in force are named")
    func withRules() throws {
        let generated = try PasswordGenerator.generate(style: .strong, rules: "required: digit; minlength: 12;")
        #expect(GeneratedPassword.Document(generated).rules != nil)
    }
}
