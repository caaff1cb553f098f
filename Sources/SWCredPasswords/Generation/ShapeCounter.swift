import SWCredCore

/// Counting and exact sampling for one ``Shape`` under ``Constraints`` (PW-6.2, PW-1.4).
///
/// Forward dynamic programming over states (covered-required-sets mask, marked flag, last
/// character, run descriptor). The last character and the run descriptor are tracked only when a
/// run limit can bite: a limit at or above the longest run the shape's alphabets allow at all is
/// dropped before counting (the strong style, for example, never puts more than two identical
/// characters in a row).
///
/// States are numbered densely and their counts are fixed-width words in one flat array per
/// position (``FixedWidth``), so counting allocates per position, not per addition. Transitions to
/// characters that neither repeat nor continue a sequence are added in bulk per (mask, flag); only
/// the at most three "special" successors of a state (the same character, one above, one below)
/// are handled one by one, as a correction of the bulk sum.
struct ShapeCounter: Sendable {
    /// The reachable states after some number of characters: dense ids, and `width` words of count
    /// per id, in a deterministic order (so a seeded source samples the same everywhere).
    struct Layer: Sendable {
        var ids: [Int32] = []
        var counts: [UInt64] = []
    }

    /// The layers of a forward pass (all of them when kept for sampling) and the total.
    struct Tables: Sendable {
        var layers: [Layer]
        var total: BigUInt
    }

    let shape: Shape
    /// The reduced required sets (intersected with the shape's characters, no duplicates, no
    /// supersets of another): hitting them all is the same as hitting the originals.
    let required: [ASCIISet]
    /// The required-set bits each ASCII character carries.
    let signature: [UInt32]
    let fullMask: UInt32
    /// The run limits that can bite in this shape (`nil` when they cannot).
    let repeatLimit: Int?
    let sequenceLimit: Int?
    /// False when a required set cannot be hit at all, or a run limit below 1 meets a non-empty shape.
    let feasible: Bool
    /// 64-bit words per count: enough for the product of the alphabet sizes.
    let width: Int
    /// The characters of the shape, and each ASCII character's index among them (-1: absent).
    let universe: [UInt8]
    let index: [Int16]
    /// The bits of a dense state id, low to high: run descriptor, last character, marked flag,
    /// mask. Run descriptors are 0 ..< R for identical runs of 1 ... R, then ascending runs of
    /// 2 ... S, then descending runs of 2 ... S.
    let runBits: Int
    let lastBits: Int
    let markBits: Int
    let denseSize: Int

    var tracksLast: Bool { repeatLimit != nil || sequenceLimit != nil }
    /// The index standing for "no character yet" (and for every state when nothing is tracked).
    var noneIndex: Int { tracksLast ? universe.count : 0 }

    init(shape: Shape, constraints: Constraints) throws(SWCredError) {
        self.shape = shape
        let universeSet = (0..<shape.count).reduce(ASCIISet.empty) { $0.union(shape.alphabet($1)) }
        var reduced: [ASCIISet] = []
        var feasible = true
        for set in constraints.required {
            let useful = set.intersection(universeSet)
            if useful.isEmpty { feasible = false }
            reduced.append(useful)
        }
        // Drop duplicates and supersets: a string hitting A ⊆ B hits B.
        var kept: [ASCIISet] = []
        for (i, set) in reduced.enumerated() {
            let implied = reduced.enumerated().contains { j, other in
                j != i && other.isSubset(of: set) && (other != set || j < i)
            }
            if !implied { kept.append(set) }
        }
        guard kept.count <= PasswordSpace.maximumRequiredSets else {
            throw SWCredError(
                .limitExceeded,
                "the rules have \(kept.count) independent required sets; at most \(PasswordSpace.maximumRequiredSets) are supported"
            )
        }
        required = kept
        var signature = [UInt32](repeating: 0, count: 128)
        for (bit, set) in kept.enumerated() {
            for c in set.members { signature[Int(c)] |= UInt32(1) << UInt32(bit) }
        }
        self.signature = signature
        fullMask = kept.isEmpty ? 0 : (UInt32(1) << UInt32(kept.count)) &- 1

        // A limit at or above the longest run the alphabets allow can never be exceeded.
        let longest = Self.longestRuns(shape)
        if shape.count > 0, (constraints.maxRepeating ?? 1) < 1 || (constraints.maxSequential ?? 1) < 1 {
            feasible = false
        }
        let repeatLimit = constraints.maxRepeating.flatMap { $0 >= 1 && $0 < longest.repeats ? $0 : nil }
        let sequenceLimit = constraints.maxSequential.flatMap { $0 >= 1 && $0 < longest.sequence ? $0 : nil }
        self.repeatLimit = repeatLimit
        self.sequenceLimit = sequenceLimit
        self.feasible = feasible

        let universe = universeSet.members
        var index = [Int16](repeating: -1, count: 128)
        for (i, c) in universe.enumerated() { index[Int(c)] = Int16(i) }
        self.universe = universe
        self.index = index
        var product = BigUInt.one
        for i in 0..<shape.count { product *= BigUInt(UInt64(max(1, shape.alphabet(i).count))) }
        width = max(1, (product.bitWidth + 63) / 64)

        let tracks = repeatLimit != nil || sequenceLimit != nil
        func bits(_ n: Int) -> Int { n <= 1 ? 0 : Int.bitWidth - (n - 1).leadingZeroBitCount }
        markBits = shape.exactlyOneMarked ? 1 : 0
        lastBits = tracks ? bits(universe.count + 1) : 0
        runBits = bits((repeatLimit ?? 1) + 2 * ((sequenceLimit ?? 1) - 1))
        let totalBits = kept.count + markBits + lastBits + runBits
        guard totalBits <= PasswordSpace.maximumDenseStateBits else {
            throw SWCredError(
                .limitExceeded,
                "the rules are too complex to count exactly (\(kept.count) required sets with run limits up to \(max(repeatLimit ?? 0, sequenceLimit ?? 0)))"
            )
        }
        denseSize = 1 << totalBits
    }

    /// The longest identical run and the longest sequential run (PW-4.9) any string of `shape` can
    /// hold, ignoring everything else: upper bounds, so a limit at or above them never bites.
    static func longestRuns(_ shape: Shape) -> (repeats: Int, sequence: Int) {
        var repeats = [Int](repeating: 0, count: 128)
        var up = [Int](repeating: 0, count: 128)
        var down = [Int](repeating: 0, count: 128)
        var bestRepeat = 0
        var bestSequence = 0
        for i in 0..<shape.count {
            var nextRepeats = [Int](repeating: 0, count: 128)
            var nextUp = [Int](repeating: 0, count: 128)
            var nextDown = [Int](repeating: 0, count: 128)
            for c in shape.alphabet(i).members {
                let k = Int(c)
                nextRepeats[k] = repeats[k] + 1
                nextUp[k] = 1
                nextDown[k] = 1
                if let range = RunLengths.sequenceRange(of: UInt32(c)) {
                    if k > 0, range.contains(UInt32(k - 1)) { nextUp[k] = up[k - 1] + 1 }
                    if k < 127, range.contains(UInt32(k + 1)) { nextDown[k] = down[k + 1] + 1 }
                }
                bestRepeat = max(bestRepeat, nextRepeats[k])
                bestSequence = max(bestSequence, nextUp[k], nextDown[k])
            }
            repeats = nextRepeats
            up = nextUp
            down = nextDown
        }
        return (bestRepeat, bestSequence)
    }

    // MARK: States

    /// The numbers that lay out state ids and runs, copied into locals by the counting kernel (a
    /// fuzzing build checks every memory load, so the hot loops keep these in registers).
    struct Geometry: Sendable {
        var width: Int
        var runBits: Int
        var lastBits: Int
        var markBits: Int
        var noneIndex: Int
        /// 0 when not tracked.
        var repeatLimit: Int
        var sequenceLimit: Int

        var tracksLast: Bool { repeatLimit != 0 || sequenceLimit != 0 }
        var repeatDimension: Int { max(repeatLimit, 1) }
        var sequenceDimension: Int { max(sequenceLimit, 1) - 1 }

        @inline(__always)
        func id(_ mask: UInt32, _ marked: Bool, _ last: Int, _ run: Int) -> Int {
            ((((Int(mask) << markBits) | (marked ? 1 : 0)) << lastBits | last) << runBits) | run
        }

        @inline(__always)
        func decode(_ id: Int) -> (mask: UInt32, marked: Bool, last: Int, run: Int) {
            let run = id & ((1 << runBits) - 1)
            let last = (id >> runBits) & ((1 << lastBits) - 1)
            let group = id >> (runBits + lastBits)
            return (UInt32(group >> markBits), group & markBits == 1, last, run)
        }

        /// The run descriptor after appending `c` to a state whose last character is `previous`
        /// (not "none") with descriptor `run`, or -1 when a run limit breaks.
        @inline(__always)
        func nextRun(_ previous: UInt8, _ run: Int, _ c: UInt8) -> Int {
            if c == previous {
                guard repeatLimit != 0 else { return 0 }
                let length = (run < repeatDimension ? run + 1 : 1) + 1
                return length > repeatLimit ? -1 : length - 1
            }
            guard sequenceLimit != 0 else { return 0 }
            let direction = RunLengths.sequentialStep(from: UInt32(previous), to: UInt32(c))
            guard direction != 0 else { return 0 }
            var length = 2
            if run >= repeatDimension {
                let k = run - repeatDimension
                let (currentDirection, currentLength) =
                    k < sequenceDimension ? (1, k + 2) : (-1, k - sequenceDimension + 2)
                if currentDirection == direction { length = currentLength + 1 }
            }
            if length > sequenceLimit { return -1 }
            return repeatDimension + (direction > 0 ? 0 : sequenceDimension) + length - 2
        }
    }

    var geometry: Geometry {
        Geometry(
            width: width, runBits: runBits, lastBits: lastBits, markBits: markBits, noneIndex: noneIndex,
            repeatLimit: repeatLimit ?? 0, sequenceLimit: sequenceLimit ?? 0)
    }

    func id(_ mask: UInt32, _ marked: Bool, _ last: Int, _ run: Int) -> Int {
        geometry.id(mask, marked, last, run)
    }

    func decode(_ id: Int) -> (mask: UInt32, marked: Bool, last: Int, run: Int) {
        geometry.decode(id)
    }

    /// The state id after appending `c` (drawn from the marked alphabet when `isMarked`), or `nil`
    /// when a run limit breaks or a second mark would be used.
    func step(_ mask: UInt32, _ marked: Bool, _ last: Int, _ run: Int, _ c: UInt8, isMarked: Bool) -> Int? {
        if isMarked && marked { return nil }
        let g = geometry
        let nextMask = mask | signature[Int(c)]
        guard g.tracksLast else { return g.id(nextMask, marked || isMarked, 0, 0) }
        var descriptor = 0
        if last != noneIndex {
            descriptor = g.nextRun(universe[last], run, c)
            if descriptor < 0 { return nil }
        }
        return g.id(nextMask, marked || isMarked, Int(index[Int(c)]), descriptor)
    }

    func isFinal(_ id: Int32) -> Bool {
        let state = decode(Int(id))
        return state.mask == fullMask && state.marked == shape.exactlyOneMarked
    }
}
