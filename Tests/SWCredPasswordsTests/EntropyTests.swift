import SWCredCore
import Testing

@testable import SWCredPasswords

@Suite("Exact entropy (PW-6)")
struct EntropyTests {
    @Test("PW-2.4/PW-6.3: legacy |V| = 614786063084848182528, 69.06 bits")
    func legacyCount() throws {
        let count = try LegacyFormat.space.count()
        #expect(count.description == "614786063084848182528")
        #expect(GeneratedPassword.formatBits(count.log2) == "69.06")
    }

    @Test("PW-3.3/PW-6.3: strong |V| = 50·19^11·6^5·96, 71.88 bits")
    func strongCount() throws {
        let space = PasswordSpace(shapes: StrongFormat.shapes(dashed: true), constraints: Constraints())
        let count = try space.count()
        let expected = BigUInt(50) * BigUInt.power(19, 11) * BigUInt.power(6, 5) * BigUInt(96)
        #expect(count == expected)
        #expect(count.description == "4347975615324244531200")
        #expect(GeneratedPassword.formatBits(count.log2) == "71.88")
    }
}
