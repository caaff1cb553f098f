/// The character constraints a generated password must meet: required sets and run limits.
///
/// Allowed characters and length are not here: they are built into a ``PasswordSpace``'s
/// per-position alphabets.
struct Constraints: Sendable, Hashable {
    /// Each set must be hit at least once (AND over sets, OR within a set).
    var required: [ASCIISet] = []
    /// No run of more than this many identical characters (PW-4.9).
    var maxRepeating: Int?
    /// No ascending or descending run of more than this many characters within a–z, A–Z or 0–9.
    var maxSequential: Int?

    /// Whether `candidate` meets every constraint.
    func isSatisfied(by candidate: [UInt8]) -> Bool {
        for set in required where !candidate.contains(where: set.contains) { return false }
        if maxRepeating != nil || maxSequential != nil {
            let runs = RunLengths(candidate.map(UInt32.init))
            if let limit = maxRepeating, runs.longestRepeat > limit { return false }
            if let limit = maxSequential, runs.longestSequence > limit { return false }
        }
        return true
    }
}

/// The longest runs of a string (PW-4.9), counted over the whole string, the last run included.
struct RunLengths: Sendable, Hashable {
    /// The longest run of identical characters (0 for the empty string).
    let longestRepeat: Int
    /// The longest run of characters each one above, or each one below, the previous, within
    /// a–z, A–Z or 0–9 (1 for a non-empty string without such pairs).
    let longestSequence: Int

    init(_ scalars: [UInt32]) {
        guard let first = scalars.first else {
            longestRepeat = 0
            longestSequence = 0
            return
        }
        var bestRepeat = 1
        var bestSequence = 1
        var repeatRun = 1
        var sequenceRun = 1
        var direction = 0  // 0 none, 1 up, -1 down
        var last = first
        for c in scalars.dropFirst() {
            repeatRun = c == last ? repeatRun + 1 : 1
            bestRepeat = max(bestRepeat, repeatRun)
            let step = Self.sequentialStep(from: last, to: c)
            if step != 0 {
                sequenceRun = step == direction ? sequenceRun + 1 : 2
                direction = step
            } else {
                sequenceRun = 1
                direction = 0
            }
            bestSequence = max(bestSequence, sequenceRun)
            last = c
        }
        longestRepeat = bestRepeat
        longestSequence = bestSequence
    }

    /// +1 when `c` is `last + 1` in the same range, -1 when `last - 1`, else 0.
    static func sequentialStep(from last: UInt32, to c: UInt32) -> Int {
        guard let range = sequenceRange(of: last), range.contains(c) else { return 0 }
        if c == last &+ 1 { return 1 }
        if c &+ 1 == last { return -1 }
        return 0
    }

    static func sequenceRange(of c: UInt32) -> ClosedRange<UInt32>? {
        switch c {
        case 0x61...0x7A: return 0x61...0x7A
        case 0x41...0x5A: return 0x41...0x5A
        case 0x30...0x39: return 0x30...0x39
        default: return nil
        }
    }
}
