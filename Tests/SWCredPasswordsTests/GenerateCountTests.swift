import SWCredCore
import Testing

@testable import SWCredPasswords

/// ``PreparedGenerator/generate(count:blockList:seed:_:)``: `swcred generate --count` as one call.
@Suite("Generating a count of passwords")
struct GenerateCountTests {
    @Test("PW-1.1: a seed gives the same passwords again, marked not secret; the system source marks them secret")
    func seededAndSystem() throws {
        let generator = try PreparedGenerator(style: .strong)
        func run(seed: UInt64?) throws -> [GeneratedPassword] {
            var out: [GeneratedPassword] = []
            try generator.generate(count: 5, blockList: BlockList([]), seed: seed) { index, generated in
                #expect(index == out.count)
                out.append(generated)
            }
            return out
        }
        let first = try run(seed: 7)
        #expect(first.count == 5)
        #expect(try run(seed: 7).map(\.password) == first.map(\.password))
        #expect(Set(first.map(\.password)).count == 5)
        #expect(first.allSatisfy { !$0.isSecret })
        #expect(try run(seed: nil).allSatisfy(\.isSecret))
    }
}
