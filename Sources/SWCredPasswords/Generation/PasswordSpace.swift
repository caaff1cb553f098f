import SWCredCore

/// A set of equally likely outputs: fixed-length strings over per-position alphabets ("shapes",
/// pairwise disjoint), restricted by ``Constraints``. It counts its members exactly (PW-6.2) and
/// samples them uniformly without rejection (PW-1.4).
///
/// Counting is dynamic programming over the state (covered-required-sets mask, last character,
/// identical-run length, sequential-run direction and length); the last character and the runs are
/// tracked only when a run limit can bite. To keep this fast, the transitions to all characters
/// that neither repeat nor continue a sequence are added in bulk per mask, and only the at most
/// three "special" successors of each state (same character, one above, one below) are handled one
/// by one.
struct PasswordSpace: Sendable {
    /// One alphabet per position; a fixed separator is a one-character alphabet.
    let shapes: [[ASCIISet]]
    let constraints: Constraints

    /// The largest number of distinct required sets the counter handles (2^16 masks).
    static let maximumRequiredSets = 16

    /// Index of a required set that no position can ever provide, if any.
    func unreachableRequiredSet() -> Int? {
        let universe = shapes.flatMap { $0 }.reduce(ASCIISet.empty) { $0.union($1) }
        return constraints.required.firstIndex { !$0.intersects(universe) }
    }

    /// The number of strings before constraints: Σ over shapes of Π |alphabet|.
    func baseCount() -> BigUInt {
        shapes.reduce(BigUInt.zero) { total, shape in
            total + shape.reduce(BigUInt.one) { $0 * BigUInt(UInt64($1.count)) }
        }
    }

    /// |V| for each shape.
    func countPerShape() throws(SWCredError) -> [BigUInt] {
        var counts: [BigUInt] = []
        for shape in shapes {
            let tables = try ShapeCounter(shape: shape, constraints: constraints).forward(keepTables: false)
            counts.append(tables.total)
        }
        return counts
    }

    /// |V|, exactly.
    func count() throws(SWCredError) -> BigUInt {
        try countPerShape().reduce(BigUInt.zero, +)
    }

    /// A uniform member of V by exact sampling (PW-1.4): a shape with probability proportional to
    /// its count, then characters right to left, each predecessor state weighted by the number of
    /// ways to reach it.
    /// - Throws: `infeasible` when V is empty.
    func sampleExactly<R: RandomSource>(using source: inout R) throws(SWCredError) -> [UInt8] {
        let counts = try countPerShape()
        let total = counts.reduce(BigUInt.zero, +)
        guard !total.isZero else { throw SWCredError(.infeasible, "no password satisfies the constraints") }
        var pick = try total.randomBelow(using: &source)
        var shapeIndex = 0
        while shapeIndex < counts.count - 1 && pick >= counts[shapeIndex] {
            pick -= counts[shapeIndex]
            shapeIndex += 1
        }
        let counter = try ShapeCounter(shape: shapes[shapeIndex], constraints: constraints)
        return try counter.sample(using: &source)
    }
}

/// Counting and sampling for one shape.
struct ShapeCounter {
    struct State: Hashable {
        var mask: UInt32
        var last: UInt8  // 255: none yet
        var run: UInt16  // identical-run length
        var direction: Int8  // sequential direction: 0 none, 1 up, -1 down
        var sequence: UInt16  // sequential-run length

        /// A total order, for reproducible sampling.
        var sortKey: UInt64 {
            UInt64(mask) << 40 | UInt64(last) << 32 | UInt64(run) << 16 | UInt64(direction + 1) << 12
                | UInt64(sequence & 0xFFF)
        }
    }

    let shape: [ASCIISet]
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
    static let start = State(mask: 0, last: noCharacter, run: 1, direction: 0, sequence: 1)

    init(shape: [ASCIISet], constraints: Constraints) throws(SWCredError) {
        self.shape = shape
        let universe = shape.reduce(ASCIISet.empty) { $0.union($1) }
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
                "the rules have \(kept.count) independent required sets; at most \(PasswordSpace.maximumRequiredSets) are supported")
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

    /// The state after appending `c` to a string in `state`, or `nil` when a run limit breaks.
    func step(_ state: State, _ c: UInt8) -> State? {
        let mask = state.mask | signature[Int(c)]
        guard tracksLast else { return State(mask: mask, last: Self.noCharacter, run: 1, direction: 0, sequence: 1) }
        var next = State(mask: mask, last: c, run: 1, direction: 0, sequence: 1)
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

    struct Tables {
        var tables: [[State: BigUInt]]
        var total: BigUInt
    }

    /// Forward dynamic programming: `tables[i]` maps each state after `i` characters to the number of
    /// prefixes reaching it.
    func forward(keepTables: Bool) throws(SWCredError) -> Tables {
        guard feasible else { return Tables(tables: [], total: .zero) }
        var current: [State: BigUInt] = [Self.start: .one]
        var tables: [[State: BigUInt]] = keepTables ? [current] : []
        for alphabet in shape {
            var next: [State: BigUInt] = [:]
            if tracksLast {
                var totals: [UInt32: BigUInt] = [:]
                var excluded: [UInt64: BigUInt] = [:]
                for (state, n) in current {
                    totals[state.mask, default: .zero] += n
                    for c in specials(of: state.last) where alphabet.contains(c) {
                        excluded[UInt64(state.mask) << 8 | UInt64(c), default: .zero] += n
                        if let target = step(state, c) { next[target, default: .zero] += n }
                    }
                }
                let members = alphabet.members
                for (mask, total) in totals {
                    for c in members {
                        var n = total
                        if let e = excluded[UInt64(mask) << 8 | UInt64(c)] { n -= e }
                        guard !n.isZero else { continue }
                        let target = State(mask: mask | signature[Int(c)], last: c, run: 1, direction: 0, sequence: 1)
                        next[target, default: .zero] += n
                    }
                }
            } else {
                // Group the alphabet by signature: characters with equal signatures lead to equal states.
                var groups: [UInt32: UInt64] = [:]
                for c in alphabet.members { groups[signature[Int(c)], default: 0] += 1 }
                for (state, n) in current {
                    for (sig, size) in groups {
                        let target = State(mask: state.mask | sig, last: Self.noCharacter, run: 1, direction: 0, sequence: 1)
                        next[target, default: .zero] += n * BigUInt(size)
                    }
                }
            }
            current = next
            if keepTables { tables.append(current) }
        }
        var total = BigUInt.zero
        for (state, n) in current where state.mask == fullMask { total += n }
        return Tables(tables: tables, total: total)
    }

    /// A uniform member of this shape's V, built right to left from the forward tables.
    func sample<R: RandomSource>(using source: inout R) throws(SWCredError) -> [UInt8] {
        let result = try forward(keepTables: true)
        guard !result.total.isZero else { throw SWCredError(.infeasible, "no password satisfies the constraints") }
        // The final state: weighted by the number of prefixes reaching it.
        // Sorted so that a seeded source gives the same output in every process.
        let finals = result.tables[shape.count].filter { $0.key.mask == fullMask }.map { ($0.key, $0.value) }
            .sorted { $0.0.sortKey < $1.0.sortKey }
        var state = try Self.choose(finals, total: result.total, using: &source)
        var output = [UInt8](repeating: 0, count: shape.count)
        var i = shape.count
        while i > 0 {
            let previous = result.tables[i - 1]
            let candidates: [UInt8] = tracksLast ? [state.last] : shape[i - 1].members
            var options: [((State, UInt8), BigUInt)] = []
            var total = BigUInt.zero
            for (p, n) in previous {
                for c in candidates where shape[i - 1].contains(c) {
                    if let s = step(p, c), s == state {
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
