import SWCredCore

/// One family of equally long outputs: an alphabet per position, and optionally a "marked" alphabet
/// per position of which exactly one position must draw (the strong style's single upper-case
/// letter). Plain and marked alphabets of a position are disjoint, so every string arises from one
/// choice only.
struct Shape: Sendable, Hashable {
    var plain: [ASCIISet]
    var marked: [ASCIISet]
    var exactlyOneMarked: Bool

    /// A shape without marks.
    init(_ plain: [ASCIISet]) {
        self.plain = plain
        marked = Array(repeating: .empty, count: plain.count)
        exactlyOneMarked = false
    }

    /// A shape with exactly one marked position.
    init(plain: [ASCIISet], marked: [ASCIISet]) {
        precondition(plain.count == marked.count && zip(plain, marked).allSatisfy { !$0.intersects($1) })
        self.plain = plain
        self.marked = marked
        exactlyOneMarked = true
    }

    var count: Int { plain.count }

    /// Every character position `i` can hold.
    func alphabet(_ i: Int) -> ASCIISet { plain[i].union(marked[i]) }

    /// Σ over the marked position of the product of the alphabet sizes (or Π |plain| without marks).
    var baseCount: BigUInt {
        var none = BigUInt.one
        var one = BigUInt.zero
        for i in 0..<count {
            let p = BigUInt(UInt64(plain[i].count))
            let m = BigUInt(UInt64(marked[i].count))
            one = one * p + none * m
            none = none * p
        }
        return exactlyOneMarked ? one : none
    }
}

/// A set of equally likely outputs: the strings of a few disjoint ``Shape``s, restricted by
/// ``Constraints``. It counts its members exactly (PW-6.2) and samples them uniformly without
/// rejection (PW-1.4).
///
/// Counting is dynamic programming over the state (covered-required-sets mask, marked flag, last
/// character, identical-run length, sequential-run direction and length); the last character and
/// the runs are tracked only when a run limit can bite. To keep this fast, the transitions to all
/// characters that neither repeat nor continue a sequence are added in bulk per (mask, flag), and
/// only the at most three "special" successors of each state (same character, one above, one
/// below) are handled one by one.
struct PasswordSpace: Sendable {
    let shapes: [Shape]
    let constraints: Constraints

    /// The largest number of distinct required sets the counter handles (2^12 masks).
    static let maximumRequiredSets = 12
    /// The largest number of counting states kept for one position; beyond it counting is refused
    /// with `limitExceeded` rather than running for minutes (only pathological rules get there).
    static let maximumStates = 300_000
    /// The largest counting work (state visits plus bulk transitions, summed over positions) for one
    /// shape; about a second in a release build.
    static let maximumWork = 6_000_000

    init(shapes: [Shape], constraints: Constraints) {
        self.shapes = shapes
        self.constraints = constraints
    }

    /// Shapes without marks.
    init(shapes: [[ASCIISet]], constraints: Constraints) {
        self.init(shapes: shapes.map(Shape.init), constraints: constraints)
    }

    /// The number of strings before constraints.
    func baseCount() -> BigUInt {
        shapes.reduce(BigUInt.zero) { $0 + $1.baseCount }
    }

    /// |V| for each shape.
    func countPerShape() throws(SWCredError) -> [BigUInt] {
        var counts: [BigUInt] = []
        for shape in shapes {
            counts.append(try ShapeCounter(shape: shape, constraints: constraints).forward(keepTables: false).total)
        }
        return counts
    }

    /// |V|, exactly.
    func count() throws(SWCredError) -> BigUInt {
        try countPerShape().reduce(BigUInt.zero, +)
    }

    /// A uniform member of V by exact sampling (PW-1.4). Prefer ``ExactSampler`` for many draws.
    /// - Throws: `infeasible` when V is empty.
    func sampleExactly<R: RandomSource>(using source: inout R) throws(SWCredError) -> [UInt8] {
        try ExactSampler(self).sample(using: &source)
    }
}

/// Exact sampling with the forward tables computed once: a shape with probability proportional to
/// its count, then characters right to left, each predecessor state weighted by the number of
/// prefixes reaching it. Uniform over V.
struct ExactSampler: Sendable {
    let counters: [ShapeCounter]
    let tables: [ShapeCounter.Tables]
    let total: BigUInt

    init(_ space: PasswordSpace) throws(SWCredError) {
        var counters: [ShapeCounter] = []
        var tables: [ShapeCounter.Tables] = []
        for shape in space.shapes {
            let counter = try ShapeCounter(shape: shape, constraints: space.constraints)
            counters.append(counter)
            tables.append(try counter.forward(keepTables: true))
        }
        self.counters = counters
        self.tables = tables
        total = tables.reduce(BigUInt.zero) { $0 + $1.total }
    }

    func sample<R: RandomSource>(using source: inout R) throws(SWCredError) -> [UInt8] {
        guard !total.isZero else { throw SWCredError(.infeasible, "no password satisfies the constraints") }
        let index = try ShapeCounter.choose(
            Array(tables.indices).map { ($0, tables[$0].total) }, total: total, using: &source)
        return try counters[index].sample(from: tables[index], using: &source)
    }
}

/// Counting and sampling for one shape.
struct ShapeCounter: Sendable {
    struct State: Hashable, Sendable {
        var mask: UInt32
        var marked: Bool
        var last: UInt8  // 255: none yet
        var run: UInt16  // identical-run length
        var direction: Int8  // sequential direction: 0 none, 1 up, -1 down
        var sequence: UInt16  // sequential-run length

        /// A total order, for reproducible sampling.
        var sortKey: UInt64 {
            UInt64(mask) << 41 | (marked ? 1 << 40 : 0) | UInt64(last) << 32 | UInt64(run) << 16
                | UInt64(direction + 1) << 12 | UInt64(sequence & 0xFFF)
        }
    }

    let shape: Shape
    /// The reduced required sets (intersected with the shape's characters, no duplicates, no
    /// supersets of another): hitting them all is the same as hitting the originals.
    let required: [ASCIISet]
    /// The required-set bits each ASCII character carries.
    let signature: [UInt32]
    let fullMask: UInt32
    let repeatLimit: Int?
    let sequenceLimit: Int?
    /// False when a required set cannot be hit at all.
    let feasible: Bool

    var tracksLast: Bool { repeatLimit != nil || sequenceLimit != nil }

    static let noCharacter: UInt8 = 255
    static let start = State(mask: 0, marked: false, last: noCharacter, run: 1, direction: 0, sequence: 1)

    init(shape: Shape, constraints: Constraints) throws(SWCredError) {
        self.shape = shape
        let universe = (0..<shape.count).reduce(ASCIISet.empty) { $0.union(shape.alphabet($1)) }
        var reduced: [ASCIISet] = []
        var feasible = true
        for set in constraints.required {
            let useful = set.intersection(universe)
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
        self.feasible = feasible
        var signature = [UInt32](repeating: 0, count: 128)
        for (bit, set) in kept.enumerated() {
            for c in set.members { signature[Int(c)] |= UInt32(1) << UInt32(bit) }
        }
        self.signature = signature
        fullMask = kept.isEmpty ? 0 : (UInt32(1) << UInt32(kept.count)) &- 1
        let length = shape.count
        // A limit at or above the length can never be exceeded: do not track it.
        repeatLimit = constraints.maxRepeating.flatMap { $0 < length ? $0 : nil }
        sequenceLimit = constraints.maxSequential.flatMap { $0 < length ? $0 : nil }
    }

    /// The state after appending `c` (drawn from the marked alphabet when `isMarked`), or `nil`
    /// when a run limit breaks or a second mark would be used.
    func step(_ state: State, _ c: UInt8, isMarked: Bool) -> State? {
        if isMarked && state.marked { return nil }
        let mask = state.mask | signature[Int(c)]
        let marked = state.marked || isMarked
        guard tracksLast else {
            return State(mask: mask, marked: marked, last: Self.noCharacter, run: 1, direction: 0, sequence: 1)
        }
        var next = State(mask: mask, marked: marked, last: c, run: 1, direction: 0, sequence: 1)
        if let limit = repeatLimit, c == state.last {
            next.run = state.run + 1
            if Int(next.run) > limit { return nil }
        }
        if let limit = sequenceLimit, state.last != Self.noCharacter {
            let direction = RunLengths.sequentialStep(from: UInt32(state.last), to: UInt32(c))
            if direction != 0 {
                next.direction = Int8(direction)
                next.sequence = Int(state.direction) == direction ? state.sequence + 1 : 2
                if Int(next.sequence) > limit { return nil }
            }
        }
        return next
    }

    /// The successors of `last` whose transition is not the generic one.
    func specials(of last: UInt8) -> [UInt8] {
        guard last != Self.noCharacter else { return [] }
        var out: [UInt8] = []
        if repeatLimit != nil { out.append(last) }
        if sequenceLimit != nil, let range = RunLengths.sequenceRange(of: UInt32(last)) {
            if last < 127, range.contains(UInt32(last) + 1) { out.append(last + 1) }
            if last > 0, range.contains(UInt32(last) - 1) { out.append(last - 1) }
        }
        return out
    }

    struct Tables: Sendable {
        var tables: [[State: BigUInt]]
        var total: BigUInt
    }

    private static func groupKey(_ mask: UInt32, _ marked: Bool) -> UInt64 {
        UInt64(mask) << 1 | (marked ? 1 : 0)
    }

    /// Forward dynamic programming: `tables[i]` maps each state after `i` characters to the number
    /// of prefixes reaching it.
    func forward(keepTables: Bool) throws(SWCredError) -> Tables {
        guard feasible else { return Tables(tables: [], total: .zero) }
        var current: [State: BigUInt] = [Self.start: .one]
        var tables: [[State: BigUInt]] = keepTables ? [current] : []
        var work = 0
        for i in 0..<shape.count {
            // Big-number additions grow with the counts' size, about 6.6 bits per position.
            let steps =
                current.count * 4 + (tracksLast ? Set(current.keys.map(\.mask)).count * 2 * shape.alphabet(i).count : 0)
            work += steps * (1 + i / 16)
            guard work <= PasswordSpace.maximumWork else {
                throw SWCredError(
                    .limitExceeded,
                    "the rules are too complex to count exactly (the counting work limit was reached at position \(i + 1) of \(shape.count))"
                )
            }
            let plain = shape.plain[i]
            let marked = shape.marked[i]
            var next: [State: BigUInt] = [:]
            if tracksLast {
                // Bulk: per (mask, flag), every character; then subtract the special successors and
                // add their true transitions.
                var totals: [UInt64: BigUInt] = [:]
                var excluded: [UInt64: BigUInt] = [:]
                for (state, n) in current {
                    let group = Self.groupKey(state.mask, state.marked)
                    totals[group, default: .zero] += n
                    for c in specials(of: state.last) {
                        let isMarked = marked.contains(c)
                        guard plain.contains(c) || (isMarked && !state.marked) else { continue }
                        excluded[group << 8 | UInt64(c), default: .zero] += n
                        if let target = step(state, c, isMarked: isMarked) { next[target, default: .zero] += n }
                    }
                }
                let plainMembers = plain.members
                let markedMembers = marked.members
                for (group, total) in totals {
                    let mask = UInt32(truncatingIfNeeded: group >> 1)
                    let alreadyMarked = group & 1 == 1
                    for (members, isMarked) in [(plainMembers, false), (markedMembers, true)] {
                        if isMarked && alreadyMarked { continue }
                        for c in members {
                            var n = total
                            if let e = excluded[group << 8 | UInt64(c)] { n -= e }
                            guard !n.isZero else { continue }
                            let target = State(
                                mask: mask | signature[Int(c)], marked: alreadyMarked || isMarked, last: c, run: 1,
                                direction: 0, sequence: 1)
                            next[target, default: .zero] += n
                        }
                    }
                }
            } else {
                // Characters with equal signatures lead to equal states: group them.
                var plainGroups: [UInt32: UInt64] = [:]
                var markedGroups: [UInt32: UInt64] = [:]
                for c in plain.members { plainGroups[signature[Int(c)], default: 0] += 1 }
                for c in marked.members { markedGroups[signature[Int(c)], default: 0] += 1 }
                for (state, n) in current {
                    for (sig, size) in plainGroups {
                        let target = State(
                            mask: state.mask | sig, marked: state.marked, last: Self.noCharacter, run: 1, direction: 0,
                            sequence: 1)
                        next[target, default: .zero] += n * BigUInt(size)
                    }
                    if state.marked { continue }
                    for (sig, size) in markedGroups {
                        let target = State(
                            mask: state.mask | sig, marked: true, last: Self.noCharacter, run: 1, direction: 0,
                            sequence: 1)
                        next[target, default: .zero] += n * BigUInt(size)
                    }
                }
            }
            guard next.count <= PasswordSpace.maximumStates else {
                throw SWCredError(
                    .limitExceeded,
                    "the rules are too complex to count exactly (more than \(PasswordSpace.maximumStates) states at position \(i + 1))"
                )
            }
            current = next
            if keepTables { tables.append(current) }
        }
        var total = BigUInt.zero
        for (state, n) in current where isFinal(state) { total += n }
        return Tables(tables: tables, total: total)
    }

    func isFinal(_ state: State) -> Bool {
        state.mask == fullMask && state.marked == shape.exactlyOneMarked
    }

    /// A uniform member of this shape's V, built right to left from the forward tables.
    func sample<R: RandomSource>(from result: Tables, using source: inout R) throws(SWCredError) -> [UInt8] {
        guard !result.total.isZero else { throw SWCredError(.infeasible, "no password satisfies the constraints") }
        // The final state, weighted by the number of prefixes reaching it; sorted so that a seeded
        // source gives the same output in every process.
        let finals = result.tables[shape.count].filter { isFinal($0.key) }.map { ($0.key, $0.value) }
            .sorted { $0.0.sortKey < $1.0.sortKey }
        var state = try Self.choose(finals, total: result.total, using: &source)
        var output = [UInt8](repeating: 0, count: shape.count)
        var i = shape.count
        while i > 0 {
            let previous = result.tables[i - 1]
            let alphabet = shape.alphabet(i - 1)
            let candidates: [UInt8] = tracksLast ? [state.last] : alphabet.members
            var options: [((State, UInt8), BigUInt)] = []
            var total = BigUInt.zero
            for (p, n) in previous {
                for c in candidates where alphabet.contains(c) {
                    if let s = step(p, c, isMarked: shape.marked[i - 1].contains(c)), s == state {
                        options.append(((p, c), n))
                        total += n
                    }
                }
            }
            options.sort { ($0.0.0.sortKey, $0.0.1) < ($1.0.0.sortKey, $1.0.1) }
            let (p, c) = try Self.choose(options, total: total, using: &source)
            output[i - 1] = c
            state = p
            i -= 1
        }
        return output
    }

    /// Picks one option with probability weight / total.
    static func choose<T>(_ options: [(T, BigUInt)], total: BigUInt, using source: inout some RandomSource)
        throws(SWCredError) -> T
    {
        guard !total.isZero, let lastOption = options.last else {
            throw SWCredError(.internalError, "exact sampling found no option (counting invariant broken)")
        }
        var pick = try total.randomBelow(using: &source)
        for (value, weight) in options {
            if pick < weight { return value }
            pick -= weight
        }
        return lastOption.0
    }
}
