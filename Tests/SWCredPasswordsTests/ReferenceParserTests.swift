import Foundation
import SWCredCore
import Testing

@testable import SWCredPasswords

/// PW-4.1: the parser gives the same result as Apple's reference parser for every input.
///
/// The vectors in `ReferenceParserVectors.swift` were produced by running the reference parser
/// (`password-manager-resources/tools/PasswordRulesParser`, `parsePasswordRules(input, false)`) over
/// every rule in Apple's `password-rules.json`, hand-written quirk cases, and seeded random strings
/// built from the language's tokens (including malformed ones and non-ASCII characters).
@Suite("Reference parser equivalence (PW-4.1)")
struct ReferenceParserTests {
    struct Vector: Decodable {
        struct Rule: Decodable, Equatable {
            let name: String
            let value: Value
        }
        enum Value: Decodable, Equatable {
            case classes([String])
            case integer(Int)
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let n = try? container.decode(Int.self) {
                    self = .integer(n)
                } else {
                    self = .classes(try container.decode([String].self))
                }
            }
        }
        let input: String
        let rules: [Rule]
    }

    static func describe(_ rules: PasswordRules) -> [Vector.Rule] {
        rules.rules.map { rule in
            switch rule {
            case .required(let classes), .allowed(let classes):
                return Vector.Rule(name: rule.name, value: .classes(classes.map(\.description)))
            case .maxConsecutive(let n), .maxRepeating(let n), .maxSequential(let n), .minLength(let n),
                .maxLength(let n):
                return Vector.Rule(name: rule.name, value: .integer(n))
            }
        }
    }

    static let vectors: [Vector] = {
        let data = Data(referenceParserVectorsJSON.utf8)
        return (try? JSONDecoder().decode([Vector].self, from: data)) ?? []
    }()

    @Test("PW-4.1: the vectors decode")
    func vectorsDecode() {
        #expect(Self.vectors.count > 1000)
    }

    @Test("PW-4.1/PW-4.6/PW-4.7: same rules, values and order as the reference parser")
    func sameAsReference() throws {
        var mismatches = 0
        for vector in Self.vectors {
            let parsed = try PasswordRules.parse(vector.input)
            let got = Self.describe(parsed)
            if got != vector.rules {
                mismatches += 1
                if mismatches <= 10 {
                    Issue.record("input \(String(reflecting: vector.input)): got \(got), expected \(vector.rules)")
                }
            }
        }
        #expect(mismatches == 0)
    }

    /// One exception, inherent in the reference parser: in a list holding both `unicode` and
    /// `ascii-printable`, the first one wins, so `required: special; required: unicode; allowed:
    /// ascii-printable;` (allowed first-wins gives `ascii-printable`) re-parses with `allowed: unicode`.
    @Test("PW-4.8: the format-compliant serialisation re-parses to the same rules")
    func serialisationRoundTrips() throws {
        for vector in Self.vectors {
            let parsed = try PasswordRules.parse(vector.input)
            if parsed.required.contains(where: { $0.contains(.unicode) }) && parsed.allowed != [.unicode] { continue }
            let reparsed = try PasswordRules.parse(parsed.description)
            #expect(reparsed.rules == parsed.rules, "\(String(reflecting: vector.input)) → \(parsed.description)")
            #expect(reparsed.diagnostics.isEmpty, "\(parsed.description): \(reparsed.diagnostics)")
        }
    }
}
