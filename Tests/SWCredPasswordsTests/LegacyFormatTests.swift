import SWCredCore
import Testing

@testable import SWCredPasswords

@Suite("Legacy SecCreateSharedWebCredentialPassword format (PW-2)")
struct LegacyFormatTests {
    static let alphabet = Array("abcdefghkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789".utf8)
    static let sampleSize = 100_000

    /// 100 000 passwords from a fixed seed, shared by the tests below.
    static let seededSample: [String] = {
        var source = SeededRandomSource(seed: 0x5EC_C4EA_7E5A)
        return (0..<sampleSize).compactMap { _ in try? PasswordGenerator.legacy(using: &source).password }
    }()

    static func matchesFormat(_ password: String) -> Bool {
        let bytes = Array(password.utf8)
        guard bytes.count == 15 else { return false }
        for (i, c) in bytes.enumerated() {
            if i % 4 == 3 {
                if c != UInt8(ascii: "-") { return false }
            } else if !alphabet.contains(c) {
                return false
            }
        }
        let body = bytes.filter { $0 != UInt8(ascii: "-") }
        return LegacyFormat.requiredSets.allSatisfy { set in body.contains(where: set.contains) }
    }

    @Test("PW-2.1/PW-2.2: 100 000 legacy passwords match xxx-xxx-xxx-xxx and contain every required set")
    func formatAndRequiredSets() {
        #expect(Self.seededSample.count == Self.sampleSize)
        let bad = Self.seededSample.filter { !Self.matchesFormat($0) }
        #expect(bad.isEmpty, "\(bad.count) passwords do not match the format")
    }

    @Test("PW-2.3: z and 2 appear (the code's alphabet, not the header's)")
    func zAndTwoAppear() {
        #expect(Self.seededSample.contains { $0.contains("z") })
        #expect(Self.seededSample.contains { $0.contains("2") })
    }

    @Test("PW-2.1: a 2 alone does not satisfy the digit requirement")
    func twoIsNotARequiredDigit() throws {
        // First candidate: lower, upper and only the digit 2 → rejected; the second is accepted.
        let first: [UInt8] = Array("abcABC222abc".utf8).map { UInt8(Self.alphabet.firstIndex(of: $0) ?? 0) }
        let second: [UInt8] = Array("abcABC322abc".utf8).map { UInt8(Self.alphabet.firstIndex(of: $0) ?? 0) }
        var source = ReplayRandomSource(bytes: first + second)
        let password = try PasswordGenerator.legacy(using: &source).password
        #expect(password == "abc-ABC-322-abc")
        #expect(source.consumed == 24)
    }

    @Test("PW-2.2: the byte stream maps as Apple's code: bytes ≥ 220 discarded, b mod 55, whole regeneration")
    func appleByteStream() throws {
        let target = Array("ptzK7m2vdWqe".utf8).map { UInt8(Self.alphabet.firstIndex(of: $0) ?? 0) }
        // A first candidate of only lower-case letters (rejected by step 4), with discarded bytes
        // (220…255) mixed in, then the target written as index + 55·k (all < 220) with more discards.
        var stream: [UInt8] = [220, 255, 0, 1, 2, 237, 3, 4, 5, 6, 7, 8, 9, 10, 11]
        for (i, index) in target.enumerated() {
            if i % 3 == 0 { stream.append(UInt8(220 + i)) }
            stream.append(index + UInt8(55 * (i % 4)))
        }
        var source = ReplayRandomSource(bytes: stream)
        let generated = try PasswordGenerator.legacy(using: &source)
        #expect(generated.password == "ptz-K7m-2vd-Wqe")
        #expect(source.consumed == stream.count)
        #expect(generated.isSecret == false)
        #expect(generated.warnings.contains { $0.contains("NOT SECRET") })
    }

    @Test("PW-1.1: the production entry point draws from libsodium and is secret")
    func productionSource() throws {
        let a = try PasswordGenerator.legacy()
        let b = try PasswordGenerator.legacy()
        #expect(Self.matchesFormat(a) && Self.matchesFormat(b))
        let generated = try PasswordGenerator.generate(style: .legacy)
        #expect(generated.isSecret)
        #expect(GeneratedPassword.formatBits(generated.entropyBits) == "69.06")
        #expect(!generated.description.contains(generated.password))
    }

    // MARK: Uniformity (PW-1.2, PW-1.3)

    /// The exact probability that one position holds `c` under uniform-over-V, from the counter:
    /// |V with that position fixed to c| / |V|.
    static func exactMarginals() throws -> [UInt8: Double] {
        let total = try LegacyFormat.space.count()
        var out: [UInt8: Double] = [:]
        for c in alphabet {
            var shape = LegacyFormat.space.shapes[0]
            shape.plain[0] = ASCIISet(bytes: [c])
            let fixed = try PasswordSpace(shapes: [shape], constraints: LegacyFormat.space.constraints).count()
            out[c] = Double(fixed.description).map { $0 / (Double(total.description) ?? 1) } ?? 0
        }
        return out
    }

    /// The largest per-position chi-square statistic over the 12 random positions (54 degrees of freedom).
    static func worstChiSquare(_ sample: [String]) throws -> Double {
        let marginals = try exactMarginals()
        var worst = 0.0
        let positions = [0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14]
        for position in positions {
            var counts: [UInt8: Int] = [:]
            for password in sample { counts[Array(password.utf8)[position], default: 0] += 1 }
            var statistic = 0.0
            for c in alphabet {
                let expected = (marginals[c] ?? 0) * Double(sample.count)
                let observed = Double(counts[c] ?? 0)
                statistic += (observed - expected) * (observed - expected) / expected
            }
            worst = max(worst, statistic)
        }
        return worst
    }

    /// Seeded: a fixed sample, tested at α = 0.001 per position (χ²₅₄ critical value 91.87). The
    /// expected frequencies are exact (a `2` is slightly rarer than `3`–`9`, since it does not meet
    /// the digit requirement), so a `% 55` bias (+25 % for the first 36 characters) fails by far.
    @Test("PW-1.2/PW-1.3: per-position chi-square on 100 000 seeded legacy passwords (α = 0.001)")
    func chiSquareSeeded() throws {
        let worst = try Self.worstChiSquare(Self.seededSample)
        #expect(worst < 91.87, "χ² = \(worst)")
    }

    /// Real source: the outcome is random, so the threshold is generous: α = 10⁻⁹ per position
    /// (χ²₅₄ critical value 141.17); over 12 positions the false-failure probability is below
    /// 1.2·10⁻⁸ per run. A 25 % bias on 36 of 55 characters gives χ² in the thousands.
    @Test("PW-1.2/PW-1.3: per-position chi-square on 100 000 libsodium legacy passwords (α = 1e-9)")
    func chiSquareRealSource() throws {
        var source = SodiumRandomSource()
        var sample: [String] = []
        sample.reserveCapacity(Self.sampleSize)
        for _ in 0..<Self.sampleSize { sample.append(try PasswordGenerator.legacy(using: &source).password) }
        #expect(sample.allSatisfy(Self.matchesFormat))
        let worst = try Self.worstChiSquare(sample)
        #expect(worst < 141.17, "χ² = \(worst)")
    }

    @Test("PW-1.2: the chi-square test detects a modulo bias (the test can fail)")
    func chiSquareDetectsModuloBias() throws {
        // The forbidden method: byte % 55 without discarding, then the same whole-candidate check.
        var source = SeededRandomSource(seed: 99)
        var sample: [String] = []
        while sample.count < 20_000 {
            var chars: [UInt8] = []
            for _ in 0..<12 { chars.append(Self.alphabet[Int(try source.nextByte()) % 55]) }
            guard LegacyFormat.requiredSets.allSatisfy({ set in chars.contains(where: set.contains) }) else { continue }
            chars.insert(45, at: 9)
            chars.insert(45, at: 6)
            chars.insert(45, at: 3)
            sample.append(String(decoding: chars, as: UTF8.self))
        }
        #expect(try Self.worstChiSquare(sample) > 141.17)
    }
}
