import SWCredCore
import Testing

@testable import SWCredPasswords

/// Per-position chi-square for the classic style (PW-1.2, PW-1.3, PW-3.6): 12 random positions over
/// 60 characters (59 degrees of freedom), expected frequencies exact from the counter (a character of
/// a small required class, the digits, is slightly more likely than a letter under uniform-over-V).
@Suite("Classic style uniformity (PW-1.2, PW-1.3)")
struct ClassicUniformityTests {
    static let positions = [0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14]

    static func worstChiSquare(_ sample: [String]) throws -> Double {
        let generator = try PreparedGenerator(style: .classic)
        let space = generator.space
        let total = Double(generator.outputCount.description) ?? 1
        let alphabet = ClassicFormat.defaultAlphabet.members
        var marginal: [UInt8: Double] = [:]
        for c in alphabet {
            var shape = space.shapes[0]
            shape.plain[0] = ASCIISet(bytes: [c])
            let fixed = try PasswordSpace(shapes: [shape], constraints: space.constraints).count()
            marginal[c] = (Double(fixed.description) ?? 0) / total
        }
        var worst = 0.0
        for position in positions {
            var counts: [UInt8: Int] = [:]
            for password in sample { counts[Array(password.utf8)[position], default: 0] += 1 }
            var statistic = 0.0
            for c in alphabet {
                let expected = (marginal[c] ?? 0) * Double(sample.count)
                let observed = Double(counts[c] ?? 0)
                statistic += (observed - expected) * (observed - expected) / expected
            }
            worst = max(worst, statistic)
        }
        return worst
    }

    static func sample<R: RandomSource>(_ n: Int, using source: inout R) throws -> [String] {
        let generator = try PreparedGenerator(style: .classic)
        return try (0..<n).map { _ in try generator.next(using: &source).password }
    }

    @Test("PW-1.3/PW-3.6: per-position chi-square on 60 000 seeded classic passwords (α = 0.001, critical 98.32)")
    func seeded() throws {
        var source = SeededRandomSource(seed: 360)
        let worst = try Self.worstChiSquare(try Self.sample(60_000, using: &source))
        #expect(worst < 98.32, "χ² = \(worst)")
    }

    /// False-failure probability below 12 · 10⁻⁹ per run (α = 10⁻⁹ per position, 12 positions).
    @Test("PW-1.3/PW-3.6: per-position chi-square on 60 000 libsodium classic passwords (α = 1e-9, critical 148.94)")
    func realSource() throws {
        var source = SodiumRandomSource()
        let worst = try Self.worstChiSquare(try Self.sample(60_000, using: &source))
        #expect(worst < 148.94, "χ² = \(worst)")
    }
}
