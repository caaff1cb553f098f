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

@Suite("Exact counting on hand-computed and brute-forced cases (PW-6.2)")
struct CountingTests {
    static func prepared(_ rules: String) throws -> PreparedGenerator {
        try PreparedGenerator(rules: try PasswordRules.parse(rules))
    }

    @Test("PW-6.2: inclusion–exclusion: 3 characters over {a,b,A,B} with a lower and an upper: 4³ − 2·2³ = 48")
    func inclusionExclusion() throws {
        let g = try Self.prepared("allowed: [abAB]; minlength: 3; maxlength: 3;")
        #expect(g.outputCount == BigUInt(48))
        #expect(GeneratedPassword.formatBits(g.entropyBits) == "5.58")
    }

    @Test("PW-6.2: repeated limit: 4 characters over {a,b} with max-repeating 1 → abab, baba")
    func repeatLimit() throws {
        #expect(
            try Self.prepared("allowed: [ab]; minlength: 4; maxlength: 4; max-repeating: 1;").outputCount == BigUInt(2))
    }

    @Test("PW-6.2: sequential limit: 3 characters over {a,b,c}: max-sequential 1 → 9, max-sequential 2 → 25")
    func sequenceLimit() throws {
        #expect(
            try Self.prepared("allowed: [abc]; minlength: 3; maxlength: 3; max-sequential: 1;").outputCount
                == BigUInt(9))
        #expect(
            try Self.prepared("allowed: [abc]; minlength: 3; maxlength: 3; max-sequential: 2;").outputCount
                == BigUInt(25))
    }

    @Test("PW-6.3: classic 70.71 bits; PW-2.4 header variant 68.44 bits")
    func referenceValues() throws {
        let classic = try PreparedGenerator(style: .classic)
        #expect(GeneratedPassword.formatBits(classic.entropyBits) == "70.71")
        let header = ASCIISet("abcdefghkmnopqrstuvwxyABCDEFGHJKLMNPQRSTUVWXYZ3456789")
        let space = PasswordSpace(
            shapes: [Array(repeating: header, count: 12)],
            constraints: Constraints(required: [
                ASCIISet("abcdefghkmnopqrstuvwxy"), ASCIISet("ABCDEFGHJKLMNPQRSTUVWXYZ"), ASCIISet("3456789"),
            ]))
        #expect(GeneratedPassword.formatBits(try space.count().log2) == "68.44")
        // The naive 12·log2 55 = 69.38 overstates the legacy format's 69.06.
        #expect(GeneratedPassword.formatBits(12 * BigUInt(55).log2) == "69.38")
    }

    /// Counts by enumerating every string: the reference for the dynamic programming.
    static func bruteForce(_ shape: [ASCIISet], _ constraints: Constraints) -> Int {
        var total = 0
        var current: [UInt8] = []
        func walk(_ i: Int) {
            if i == shape.count {
                if constraints.isSatisfied(by: current) { total += 1 }
                return
            }
            for c in shape[i].members {
                current.append(c)
                walk(i + 1)
                current.removeLast()
            }
        }
        walk(0)
        return total
    }

    @Test("PW-6.2: the counter equals brute force on 300 random small spaces with required sets and run limits")
    func matchesBruteForce() throws {
        var source = SeededRandomSource(seed: 77)
        let pool = Array("abcdAB12-".utf8)
        for _ in 0..<300 {
            let length = 1 + (try source.uniform(5))
            var shape: [ASCIISet] = []
            for _ in 0..<length {
                var set = ASCIISet.empty
                for c in pool where try source.uniform(2) == 0 { set.insert(c) }
                if set.isEmpty { set.insert(pool[try source.uniform(pool.count)]) }
                shape.append(set)
            }
            var required: [ASCIISet] = []
            for _ in 0..<(try source.uniform(4)) {
                var set = ASCIISet.empty
                for c in pool where try source.uniform(3) == 0 { set.insert(c) }
                required.append(set)
            }
            let constraints = Constraints(
                required: required,
                maxRepeating: try source.uniform(2) == 0 ? 1 + (try source.uniform(3)) : nil,
                maxSequential: try source.uniform(2) == 0 ? 1 + (try source.uniform(3)) : nil)
            let counted = try PasswordSpace(shapes: [shape], constraints: constraints).count()
            let expected = Self.bruteForce(shape, constraints)
            #expect(counted == BigUInt(UInt64(expected)), "shape \(shape), constraints \(constraints)")
        }
    }

    @Test("PW-6.2: marked positions (the strong style's single upper-case letter) count as the union of shapes")
    func markedPositions() throws {
        let plain = [ASCIISet("ab"), ASCIISet("a"), ASCIISet("ab")]
        let marked = [ASCIISet("AB"), ASCIISet("A"), ASCIISet("AB")]
        let constraints = Constraints(required: [ASCIISet("bB")], maxRepeating: 1)
        let space = PasswordSpace(shapes: [Shape(plain: plain, marked: marked)], constraints: constraints)
        var expected = 0
        for p in 0..<3 {
            var shape = plain
            shape[p] = marked[p]
            expected += Self.bruteForce(shape, constraints)
        }
        #expect(try space.count() == BigUInt(UInt64(expected)))
        #expect(space.baseCount() == BigUInt(2 * 1 * 2 + 2 * 1 * 2 + 2 * 1 * 2))
    }

    @Test("PW-6.2: marked shapes with both run limits equal brute force (200 random spaces)")
    func markedMatchesBruteForce() throws {
        var source = SeededRandomSource(seed: 91)
        let lower = Array("abcd12".utf8)
        for _ in 0..<200 {
            let length = 2 + (try source.uniform(3))
            var plain: [ASCIISet] = []
            var marked: [ASCIISet] = []
            for _ in 0..<length {
                var p = ASCIISet.empty
                var m = ASCIISet.empty
                for c in lower where try source.uniform(2) == 0 { p.insert(c) }
                // The marked alphabet: upper case of letters the plain one lacks (disjoint by construction).
                for c in Array("abcd".utf8) where try source.uniform(3) == 0 { m.insert(c - 32) }
                if p.isEmpty && m.isEmpty { p.insert(UInt8(ascii: "a")) }
                plain.append(p)
                marked.append(m)
            }
            let constraints = Constraints(
                required: try source.uniform(2) == 0 ? [ASCIISet("bB2")] : [],
                maxRepeating: try source.uniform(2) == 0 ? 1 + (try source.uniform(2)) : nil,
                maxSequential: try source.uniform(2) == 0 ? 1 + (try source.uniform(2)) : nil)
            var expected = 0
            for position in 0..<length where !marked[position].isEmpty {
                var shape = plain
                shape[position] = marked[position]
                expected += Self.bruteForce(shape, constraints)
            }
            let space = PasswordSpace(shapes: [Shape(plain: plain, marked: marked)], constraints: constraints)
            #expect(try space.count() == BigUInt(UInt64(expected)), "plain \(plain), marked \(marked), \(constraints)")
        }
    }

    @Test("PW-6.2: a run limit the alphabets cannot reach is not tracked, and the count is unchanged")
    func unreachableRunLimitsAreDropped() throws {
        // The dashed strong style never puts three identical characters in a row ("bb" only where
        // two consonants meet), nor a sequence longer than four ("wxyz" fits C C V C; the dashes
        // break the C C V C C that "stuvw" would need).
        for shape in StrongFormat.shapes(dashed: true) {
            let longest = ShapeCounter.longestRuns(shape)
            #expect(longest.repeats == 2)
            #expect(longest.sequence == 4)
            let limited = try ShapeCounter(shape: shape, constraints: Constraints(maxRepeating: 2, maxSequential: 4))
            #expect(!limited.tracksLast)
            let biting = try ShapeCounter(shape: shape, constraints: Constraints(maxRepeating: 1))
            #expect(biting.tracksLast)
        }
        let strong = StrongFormat.shapes(dashed: true)
        let free = try PasswordSpace(shapes: strong, constraints: Constraints()).count()
        #expect(try PasswordSpace(shapes: strong, constraints: Constraints(maxRepeating: 3, maxSequential: 8)).count() == free)
        #expect(try PasswordSpace(shapes: strong, constraints: Constraints(maxSequential: 3)).count() < free)
        #expect(try PasswordSpace(shapes: strong, constraints: Constraints(maxRepeating: 1)).count() < free)
        // A classic shape: 6 positions over "abc" allow runs of 6; a limit of 6 is dropped, 5 bites.
        let classic = [ASCIISet](repeating: ASCIISet("abc"), count: 6)
        #expect(ShapeCounter.longestRuns(Shape(classic)).repeats == 6)
        #expect(ShapeCounter.longestRuns(Shape(classic)).sequence == 3)
        #expect(try PasswordSpace(shapes: [classic], constraints: Constraints(maxRepeating: 5)).count() == BigUInt(729 - 3))
        #expect(try PasswordSpace(shapes: [classic], constraints: Constraints(maxSequential: 2)).count()
            == BigUInt(UInt64(Self.bruteForce(classic, Constraints(maxSequential: 2)))))
    }

    @Test("BigUInt: arithmetic, decimal text and log2")
    func bigUInt() {
        let a = BigUInt.power(2, 100)
        #expect(a.description == "1267650600228229401496703205376")
        #expect(a.log2 == 100)
        #expect((a - BigUInt(1)).description == "1267650600228229401496703205375")
        #expect((a + a) == BigUInt.power(2, 101))
        #expect(BigUInt.power(10, 30) / 1 == BigUInt.power(10, 30))
        #expect(BigUInt.zero.description == "0")
        #expect(BigUInt(12345678901234567890).description == "12345678901234567890")
    }
}

extension BigUInt {
    fileprivate static func / (lhs: BigUInt, rhs: UInt32) -> BigUInt {
        lhs.quotientAndRemainder(dividingBy: rhs).quotient
    }
}
