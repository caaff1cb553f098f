package import SWCredCore

extension PreparedGenerator {
    /// Generates `count` passwords and hands each to `body` as it comes (`swcred generate
    /// --count`): from libsodium's random source, or with `seed` from a deterministic one (PW-1.1,
    /// for tests: its passwords are marked not secret).
    /// - Throws: as ``next(using:blockList:)``; what `body` throws.
    package func generate(
        count: Int, blockList: BlockList, seed: UInt64?, _ body: (Int, GeneratedPassword) throws(SWCredError) -> Void
    ) throws(SWCredError) {
        if let seed {
            var source = SeededRandomSource(seed: seed)
            for index in 0..<count { try body(index, try next(using: &source, blockList: blockList)) }
        } else {
            var source = SodiumRandomSource()
            for index in 0..<count { try body(index, try next(using: &source, blockList: blockList)) }
        }
    }
}
