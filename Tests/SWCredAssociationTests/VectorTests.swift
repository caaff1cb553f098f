import Foundation
import SWCredAssociation
import Testing

/// A match case from `Vectors/match-vectors.json`.
struct MatchVector: Sendable, CustomTestStringConvertible {
    let name: String
    let aasa: [UInt8]
    let url: String
    let appID: String?
    let outcome: String
    let detail: Int?
    let component: Int?
    var testDescription: String { name }
}

/// A lint case from `Vectors/lint-vectors.json`.
struct LintVector: Sendable, CustomTestStringConvertible {
    let name: String
    let aasa: [UInt8]
    let ids: Set<String>
    var testDescription: String { name }
}

enum Vectors {
    static func cases(_ name: String) -> [[String: Any]] {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors"),
            let data = try? Data(contentsOf: url),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let cases = root["cases"] as? [[String: Any]]
        else { return [] }
        return cases
    }

    static func bytes(_ object: Any?) -> [UInt8] {
        guard let object, let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            return []
        }
        return [UInt8](data)
    }

    static let match: [MatchVector] = cases("match-vectors").map {
        MatchVector(
            name: $0["name"] as? String ?? "?", aasa: bytes($0["aasa"]), url: $0["url"] as? String ?? "",
            appID: $0["appID"] as? String, outcome: $0["outcome"] as? String ?? "",
            detail: $0["detail"] as? Int, component: $0["component"] as? Int)
    }

    static let lint: [LintVector] = cases("lint-vectors").map {
        LintVector(name: $0["name"] as? String ?? "?", aasa: bytes($0["aasa"]), ids: Set($0["ids"] as? [String] ?? []))
    }
}

@Suite("Test vectors (Vectors/*.json)")
struct VectorTests {
    @Test("The vector files load")
    func loaded() {
        #expect(Vectors.match.count >= 40)
        #expect(Vectors.lint.count >= 15)
    }

    @Test("Match vectors", arguments: Vectors.match)
    func match(vector: MatchVector) throws {
        let file = try AssociationFile.parse(vector.aasa)
        let result = ReferenceApplinksMatcher(file: file).match(try LinkURL(vector.url), appID: vector.appID)
        #expect(result.outcome.rawValue == vector.outcome)
        if let detail = vector.detail {
            #expect(result.rule?.detail == detail)
            #expect(result.rule?.component == vector.component)
        } else {
            #expect(result.outcome != .noMatch || result.rule == nil)
        }
    }

    @Test("Lint vectors: warnings and errors are exactly the expected ids", arguments: Vectors.lint)
    func lint(vector: LintVector) {
        let ids = Set(AssociationLinter().lint(vector.aasa).filter { $0.severity != .note }.map(\.id))
        #expect(ids == vector.ids)
    }
}
