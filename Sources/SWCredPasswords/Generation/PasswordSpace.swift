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
/// Each shape is counted by a ``ShapeCounter``: dynamic programming over (covered-required-sets
/// mask, marked flag, last character, run), with the last character and the run tracked only when
/// a run limit can bite in that shape.
struct PasswordSpace: Sendable {
    let shapes: [Shape]
    let constraints: Constraints

    /// The largest number of distinct required sets the counter handles (2^12 masks).
    static let maximumRequiredSets = 12
    /// The largest number of counting states kept for one position; beyond it counting is refused
    /// with `limitExceeded` rather than running for minutes (only pathological rules get there).
    static let maximumStates = 300_000
    /// The largest counting work for preparing one generator (all shapes, and the fallback plan),
    /// in the units of ``ShapeCounter/workEstimate(states:bulk:width:)``: about 20 ms in a release
    /// build. Rules past it are refused with `limitExceeded` rather than counted for seconds.
    static let maximumWork = 5_000_000
    /// The largest dense state space of one shape, in bits of a state id (masks, mark, last
    /// character, run descriptor, each rounded up to a power of two).
    static let maximumDenseStateBits = 22

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

    /// |V|, exactly.
    func count() throws(SWCredError) -> BigUInt {
        var work = 0
        return try count(work: &work)
    }

    /// |V|, adding the counting work to `work` and refusing past `workLimit`.
    func count(work: inout Int, workLimit: Int = PasswordSpace.maximumWork) throws(SWCredError) -> BigUInt {
        var total = BigUInt.zero
        for shape in shapes {
            total += try ShapeCounter(shape: shape, constraints: constraints)
                .forward(keepTables: false, work: &work, workLimit: workLimit).total
        }
        return total
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
        var work = 0
        try self.init(space, work: &work)
    }

    /// Counts `space` keeping the tables, adding the work to `work` and refusing past `workLimit`.
    init(_ space: PasswordSpace, work: inout Int, workLimit: Int = PasswordSpace.maximumWork) throws(SWCredError) {
        var counters: [ShapeCounter] = []
        var tables: [ShapeCounter.Tables] = []
        for shape in space.shapes {
            let counter = try ShapeCounter(shape: shape, constraints: space.constraints)
            counters.append(counter)
            tables.append(try counter.forward(keepTables: true, work: &work, workLimit: workLimit))
        }
        self.counters = counters
        self.tables = tables
        total = tables.reduce(BigUInt.zero) { $0 + $1.total }
    }

    func sample<R: RandomSource>(using source: inout R) throws(SWCredError) -> [UInt8] {
        guard !total.isZero else { throw SWCredError(.infeasible, "no password satisfies the constraints") }
        // A shape with probability proportional to its count.
        var pick = try total.randomBelow(using: &source)
        var index = tables.count - 1
        for (k, table) in tables.enumerated() {
            if pick < table.total {
                index = k
                break
            }
            pick -= table.total
        }
        return try counters[index].sample(from: tables[index], using: &source)
    }
}
