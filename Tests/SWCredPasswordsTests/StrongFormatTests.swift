import SWCredCore
import Testing

@testable import SWCredPasswords

@Suite("Safari's strong format (PW-3)")
struct StrongFormatTests {
    static let consonants = Set("bcdfghjkmnpqrstvwxz")
    static let vowels = Set("aeiouy")

    static let sample: [String] = {
        var source = SeededRandomSource(seed: 204)
        return (0..<5_000).compactMap { _ in
            try? PasswordGenerator.generate(style: .strong, rules: nil, using: &source).password
        }
    }()

    /// Recovers (layout, letters) from a password, or nil when it does not have the PW-3.3 shape.
    static func decompose(_ password: String) -> (layout: Int, letters: [Character])? {
        let chars = Array(password)
        guard chars.count == 20, chars[6] == "-", chars[13] == "-" else { return nil }
        let body = chars.filter { $0 != "-" }
        guard let digitIndex = body.firstIndex(where: \.isNumber), body.filter(\.isNumber).count == 1 else {
            return nil
        }
        var letters = body
        letters.remove(at: digitIndex)
        let layouts = [5: 0, 6: 1, 11: 2, 12: 3, 17: 4]
        guard let layout = layouts[digitIndex] else { return nil }
        // Undo the layout: back to s1 s2 s3.
        let l = letters
        let ordered: [Character]
        switch layout {
        case 0: ordered = Array(l[5..<11] + l[11..<17] + l[0..<5])  // s3 s1 s2
        case 1: ordered = Array(l[0..<6] + l[11..<17] + l[6..<11])  // s1 s3 s2
        case 2: ordered = Array(l[0..<6] + l[11..<17] + l[6..<11])  // s1 s3 s2
        default: ordered = l
        }
        return (layout, ordered)
    }

    @Test("PW-3.1/PW-3.3: 16 lower, 1 upper, 1 digit, 2 hyphens in xxxxxx-xxxxxx-xxxxxx")
    func composition() {
        for password in Self.sample {
            #expect(password.count == 20)
            #expect(password.filter(\.isLowercase).count == 16)
            #expect(password.filter(\.isUppercase).count == 1)
            #expect(password.filter(\.isNumber).count == 1)
            #expect(password.filter { $0 == "-" }.count == 2)
            #expect(!password.contains("O") && !password.contains("l") && !password.contains("L"))
        }
    }

    @Test("PW-3.3: letters follow CVC CVC CVC CVC CVC C V and every layout occurs")
    func patternAndLayouts() throws {
        var layouts = Set<Int>()
        for password in Self.sample {
            let (layout, letters) = try #require(Self.decompose(password))
            layouts.insert(layout)
            for (letter, isConsonant) in zip(letters, StrongFormat.pattern) {
                let lower = Character(letter.lowercased())
                #expect(isConsonant ? Self.consonants.contains(lower) : Self.vowels.contains(lower), "\(password)")
            }
        }
        #expect(layouts == [0, 1, 2, 3, 4])
    }

    @Test("PW-3.3: [S204]'s tobzi2-cyczyz-sesSyt has the first layout's shape")
    func wwdcExample() throws {
        let (layout, letters) = try #require(Self.decompose("tobzi2-cyczyz-sesSyt"))
        #expect(layout == 0)
        for (letter, isConsonant) in zip(letters, StrongFormat.pattern) {
            let lower = Character(letter.lowercased())
            #expect(isConsonant ? Self.consonants.contains(lower) : Self.vowels.contains(lower))
        }
        #expect(
            StrongFormat.assemble(
                letters: Array("cyczyzsesSyttobzi".utf8), digit: UInt8(ascii: "2"), layout: 0, dashed: true)
                == Array("tobzi2-cyczyz-sesSyt".utf8))
    }

    @Test(
        "PW-3.3: an upper-cased o regenerates the whole password, so O never appears and vowels are upper-cased less often"
    )
    func noUpperO() {
        let uppers = Self.sample.compactMap { $0.first(where: \.isUppercase) }
        #expect(!uppers.contains("O"))
        #expect(uppers.contains { "AEIUY".contains($0) })
    }

    @Test("PW-3.3: the uppercase position is uniform over the 17 letters (chi-square α = 0.001, 16 dof: 39.25)")
    func upperPositionUniform() throws {
        // Under uniform-over-V, a consonant position is upper-case with probability 19·6/(19^... ) ∝ 19/19 = 1
        // per shape and a vowel position with 5/6 of that: weights 6 (consonant) and 5 (vowel), total 96.
        var counts = [Int](repeating: 0, count: 17)
        for password in Self.sample {
            let (_, letters) = try #require(Self.decompose(password))
            if let index = letters.firstIndex(where: \.isUppercase) { counts[index] += 1 }
        }
        let n = Double(Self.sample.count)
        var chi = 0.0
        for (index, isConsonant) in StrongFormat.pattern.enumerated() {
            let expected = n * (isConsonant ? 6.0 : 5.0) / 96.0
            chi += (Double(counts[index]) - expected) * (Double(counts[index]) - expected) / expected
        }
        #expect(chi < 39.25, "χ² = \(chi)")
    }

    @Test("PW-3.3: the production strong generator reports 71.88 bits")
    func production() throws {
        let generated = try PasswordGenerator.generate()
        #expect(generated.isSecret)
        #expect(generated.style == .strong)
        #expect(GeneratedPassword.formatBits(generated.entropyBits) == "71.88")
        #expect(generated.warnings.isEmpty)
    }

    @Test("PW-3.6: the classic style is 12 of the 60 characters, grouped, with lower, upper and digit")
    func classic() throws {
        var source = SeededRandomSource(seed: 36)
        for _ in 0..<500 {
            let p = try PasswordGenerator.generate(style: .classic, rules: nil, using: &source).password
            let chars = Array(p)
            #expect(chars.count == 15 && chars[3] == "-" && chars[7] == "-" && chars[11] == "-")
            #expect(!p.contains("l") && !p.contains("O"))
            #expect(
                p.contains(where: \.isLowercase) && p.contains(where: \.isUppercase) && p.contains(where: \.isNumber))
        }
    }
}
