import Foundation
import SWCredCore
import Testing

@testable import SWCredPasswords

@Suite("Shared-credentials quirks (PW-7.4 – PW-7.6)")
struct SharedCredentialsTests {
    static func load(_ json: String) throws(SWCredError) -> SharedCredentialsQuirks {
        try SharedCredentialsQuirks(data: Data(json.utf8), name: "shared.json")
    }

    static let sample = """
        [
          {"shared": ["a.com", "b.com", "C.com."]},
          {"from": ["old.com"], "to": ["new.com"], "fromDomainsAreObsoleted": true},
          {"from": ["x.com"], "to": ["y.com"]}
        ]
        """

    @Test("PW-7.4: shared groups work both ways; subdomains are covered on label boundaries")
    func sharedGroups() throws {
        let q = try Self.load(Self.sample)
        #expect(q.sourceDomains(offeredOn: "a.com") == ["b.com", "c.com"])
        #expect(q.sourceDomains(offeredOn: "login.b.com") == ["a.com", "c.com"])
        #expect(q.sourceDomains(offeredOn: "nota.com") == [])
    }

    @Test(
        "PW-7.4/PW-7.6: one-way groups go from → to only; fromDomainsAreObsoleted is optional (Decision); relatedness")
    func oneWayGroups() throws {
        let q = try Self.load(Self.sample)
        #expect(q.sourceDomains(offeredOn: "new.com") == ["old.com"])
        #expect(q.sourceDomains(offeredOn: "old.com") == [])
        #expect(q.sourceDomains(offeredOn: "www.y.com") == ["x.com"])
        #expect(q.groups[2] == .oneWay(from: ["x.com"], to: ["y.com"], fromDomainsAreObsoleted: false))
        #expect(q.areRelated("x.com", "y.com") && !q.areRelated("x.com", "a.com"))
    }

    @Test("PW-7.4: empty lists, duplicates, mixed or wrong shapes fail with malformedQuirks naming the group")
    func malformed() {
        for json in [
            "{}", "[{\"shared\": []}]", "[{\"shared\": [\"a.com\", \"A.com\"]}]", "[{\"from\": [\"a.com\"]}]",
            "[{\"shared\": [\"a.com\"], \"to\": [\"b.com\"]}]", "[{\"shared\": \"a.com\"}]",
            "[{\"from\": [\"a.com\"], \"to\": [\"b.com\"], \"fromDomainsAreObsoleted\": 1}]",
        ] {
            #expect(throws: SWCredError(.malformedQuirks, ""), "\(json)") { try Self.load(json) }
        }
    }

    @Test("PW-7.1: unknown keys in a group are warnings")
    func unknownKeys() throws {
        let q = try Self.load("[{\"shared\": [\"a.com\", \"b.com\"], \"note\": \"x\"}]")
        #expect(q.warnings.count == 1 && q.warnings[0].contains("note"))
    }

    @Test(
        "PW-7.4 with Apple's data: both files load; the one-way groups without the flag default to false",
        .enabled(if: QuirksData.available, "Apple's quirks data (../shared/data) is absent"))
    func appleData() throws {
        guard let directory = QuirksData.directory else { return }
        let current = try SharedCredentialsQuirks(
            contentsOfFile: directory.appendingPathComponent("shared-credentials.json").path)
        #expect(current.groups.count > 90)
        #expect(current.warnings.isEmpty)
        #expect(current.sourceDomains(offeredOn: "hosting.com").contains("a2hosting.com"))
        #expect(!current.sourceDomains(offeredOn: "a2hosting.com").contains("hosting.com"))
        let historical = try SharedCredentialsQuirks(
            contentsOfFile: directory.appendingPathComponent("shared-credentials-historical.json").path)
        #expect(historical.groups.allSatisfy { if case .shared = $0 { return true } else { return false } })
    }
}
