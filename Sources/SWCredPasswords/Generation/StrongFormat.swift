import SWCredCore

/// Safari's strong password (PW-3.3), the "more typeable" generator of Apple's validation tool.
enum StrongFormat {
    static let consonants = Array("bcdfghjkmnpqrstvwxz".utf8)
    static let vowels = Array("aeiouy".utf8)
    static let digits = Array("0123456789".utf8)
    /// CVC CVC CVC CVC CVC C V: `true` for a consonant.
    static let pattern: [Bool] = [
        true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false,
    ]
    static let segment1 = 0..<6
    static let segment2 = 6..<12
    static let segment3 = 12..<17
    static let layoutCount = 5

    /// The characters the strong style can emit (PW-5.4): 25 lower-case letters (no `l`), their upper
    /// case except `O`, the digits, and `-` when dashed.
    static func emittable(dashed: Bool) -> ASCIISet {
        let letters = ASCIISet(bytes: consonants + vowels)
        var upper = ASCIISet(bytes: (consonants + vowels).map { $0 - 32 })
        upper.remove(UInt8(ascii: "O"))
        var set = letters.union(upper).union(ASCIISet(bytes: digits))
        if dashed { set.insert(UInt8(ascii: "-")) }
        return set
    }

    /// Puts the letters and the digit in layout `layout`'s order, then adds the dashes.
    static func assemble(letters: [UInt8], digit: UInt8, layout: Int, dashed: Bool) -> [UInt8] {
        arrange(letters, digit: digit, dash: UInt8(ascii: "-"), layout: layout, dashed: dashed)
    }

    /// The one definition of the five layouts and the dash positions, shared by the generator
    /// (bytes) and the counting shapes (character sets), so the two can never disagree.
    static func arrange<Element>(_ letters: [Element], digit: Element, dash: Element, layout: Int, dashed: Bool)
        -> [Element]
    {
        let s1 = Array(letters[segment1])
        let s2 = Array(letters[segment2])
        let s3 = Array(letters[segment3])
        var body: [Element]
        switch layout {
        case 0: body = s3 + [digit] + s1 + s2
        case 1: body = s1 + [digit] + s3 + s2
        case 2: body = s1 + s3 + [digit] + s2
        case 3: body = s1 + s2 + [digit] + s3
        default: body = s1 + s2 + s3 + [digit]
        }
        if dashed {
            // Step 4: `-` after characters 6 and 12.
            body.insert(dash, at: 12)
            body.insert(dash, at: 6)
        }
        return body
    }

    /// One candidate, uniform over the strong style's output set (PW-3.3 steps 1–4).
    static func candidate<R: RandomSource>(dashed: Bool, using source: inout R) throws(SWCredError) -> [UInt8] {
        while true {
            // Step 1: 17 letters in the CVC pattern.
            var letters: [UInt8] = []
            letters.reserveCapacity(17)
            for isConsonant in pattern {
                let pool = isConsonant ? consonants : vowels
                letters.append(pool[try source.uniform(pool.count)])
            }
            // Step 2: upper-case one position; an `o` there regenerates the whole password.
            let position = try source.uniform(17)
            if letters[position] == UInt8(ascii: "o") { continue }
            letters[position] -= 32
            // Step 3: a digit and one of five layouts.
            let digit = digits[try source.uniform(10)]
            let layout = try source.uniform(layoutCount)
            return assemble(letters: letters, digit: digit, layout: layout, dashed: dashed)
        }
    }

    /// The output set as disjoint shapes, one per layout; each letter position may be the single
    /// upper-case ("marked") one (PW-6.2).
    static func shapes(dashed: Bool) -> [Shape] {
        let lowerConsonants = ASCIISet(bytes: consonants)
        let lowerVowels = ASCIISet(bytes: vowels)
        let upperConsonants = ASCIISet(bytes: consonants.map { $0 - 32 })
        var upperVowels = ASCIISet(bytes: vowels.map { $0 - 32 })
        upperVowels.remove(UInt8(ascii: "O"))
        let digitSet = ASCIISet(bytes: digits)
        let plainLetters = pattern.map { $0 ? lowerConsonants : lowerVowels }
        let markedLetters = pattern.map { $0 ? upperConsonants : upperVowels }
        return (0..<layoutCount).map { layout in
            Shape(
                plain: arrange(plainLetters, digit: digitSet, dash: ASCIISet("-"), layout: layout, dashed: dashed),
                marked: arrange(markedLetters, digit: .empty, dash: .empty, layout: layout, dashed: dashed))
        }
    }
}

/// Safari's classic format (PW-3.6, PW-5.5): uniformly random characters from an alphabet, grouped
/// `xxx-xxx-xxx-xxx` when dashed.
enum ClassicFormat {
    /// The 60 unambiguous characters: no `l`, no `O`.
    static let defaultAlphabet = ASCIISet("abcdefghijkmnopqrstuvwxyzABCDEFGHIJKLMNPQRSTUVWXYZ0123456789")

    /// The shape: `length` random positions, or 12 in four dashed groups.
    static func shape(alphabet: ASCIISet, length: Int, dashed: Bool) -> [ASCIISet] {
        guard dashed else { return Array(repeating: alphabet, count: length) }
        var shape: [ASCIISet] = []
        for group in 0..<4 {
            if group > 0 { shape.append(ASCIISet("-")) }
            shape += [alphabet, alphabet, alphabet]
        }
        return shape
    }

    /// One candidate: each random position uniform over its alphabet.
    static func candidate<R: RandomSource>(members: [[UInt8]], using source: inout R) throws(SWCredError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(members.count)
        for pool in members {
            guard !pool.isEmpty else { throw SWCredError(.internalError, "a generation position has no characters") }
            out.append(pool.count == 1 ? pool[0] : pool[try source.uniform(pool.count)])
        }
        return out
    }
}
