import Foundation
import Testing

/// The validator behind the per-command schema checks must itself reject what it should.
@Suite("JSON schemas")
struct JSONSchemaTests {
    static let schemaNames: [String] = {
        let folder = CLI.repositoryRoot.appendingPathComponent("Schemas")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".schema.json") }.map { String($0.dropLast(".schema.json".count)) }.sorted()
    }()

    @Test("every schema file loads and uses only keywords the validator checks", arguments: schemaNames)
    func schemaLoads(_ name: String) throws {
        var validator = JSONSchemaValidator.repository
        // Validating any value walks the whole top level; an unsupported keyword throws.
        _ = try validator.validate(["schema": "swcred/1"], against: name)
    }

    @Test("a document that follows cli.md passes; each kind of drift is reported")
    func validatorCatchesDrift() throws {
        var validator = JSONSchemaValidator.repository
        let good: [String: Any] = [
            "schema": "swcred/1",
            "items": [["server": "example.com", "account": "a", "port": NSNull(), "label": "example.com (a)",
                       "created": "2026-11-23T09:00:00Z", "modified": "2026-11-23T09:00:00Z"]],
        ]
        #expect(try validator.validate(good, against: "list") == [])

        var wrongSchema = good
        wrongSchema["schema"] = "swcred/2"
        #expect(try validator.validate(wrongSchema, against: "list").count == 1)

        var missing = good
        missing["items"] = [["server": "example.com"]]
        #expect(try validator.validate(missing, against: "list").contains { $0.contains("missing required field 'account'") })

        var leaks = good
        leaks["items"] = [["server": "example.com", "account": "a", "port": 443, "label": NSNull(),
                           "created": "x", "modified": "y", "password": "hunter2"]]
        #expect(try validator.validate(leaks, against: "list").contains { $0.contains("must not match") })

        let badOutcome: [String: Any] = ["schema": "swcred/1", "url": "https://x/", "host": "x", "outcome": "matched",
                                         "appID": NSNull(), "entitlement": NSNull(), "aasaHost": NSNull(), "rule": NSNull()]
        #expect(try validator.validate(badOutcome, against: "match").contains { $0.contains("is not one of") })

        let boolAsNumber: [String: Any] = ["schema": "swcred/1", "password": "x", "entropyBits": true, "rules": NSNull()]
        #expect(try validator.validate(boolAsNumber, against: "generate").contains { $0.contains("expected number") })
    }
}
