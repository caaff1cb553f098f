import SWCredCore
import Testing

@testable import SWCredPasswords

@Suite("Block list (PW-3.5)")
struct BlockListTests {
    @Test("PW-3.5: blocked substrings never appear (case-insensitive); entropy is flagged as an upper bound")
    func blocks() throws {
        let generator = try PreparedGenerator(
            rules: try PasswordRules.parse("allowed: [ab]; minlength: 6; maxlength: 6;"))
        let list = BlockList(["AAA", "bbb", ""])
        #expect(list.substrings == ["aaa", "bbb"])
        var source = SeededRandomSource(seed: 35)
        for _ in 0..<300 {
            let generated = try generator.next(using: &source, blockList: list)
            #expect(!generated.password.contains("aaa") && !generated.password.contains("bbb"))
            #expect(generated.entropyIsUpperBound)
            #expect(generated.warnings.contains { $0.contains("upper bound") })
        }
        let plain = try generator.next(using: &source, blockList: BlockList([]))
        #expect(!plain.entropyIsUpperBound)
    }

    @Test("PW-3.5: a block list that rejects everything ends with infeasible, not a loop")
    func rejectsEverything() throws {
        let generator = try PreparedGenerator(
            rules: try PasswordRules.parse("allowed: [a]; minlength: 3; maxlength: 3;"))
        var source = SeededRandomSource(seed: 1)
        #expect(throws: SWCredError(.infeasible, "")) {
            try generator.next(using: &source, blockList: BlockList(["a"]))
        }
    }
}
