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
                let (currentDirection, currentLength) = k < sequenceDimension ? (1, k + 2) : (-1, k - sequenceDimension + 2)
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

    // MARK: Counting

    /// The next layer under construction, in raw memory sized for the position's worst case: a
    /// dense slot per state id (-1 when absent), the ids in first-touch order and their counts.
    private struct Scratch {
        let slot: UnsafeMutablePointer<Int32>
        var ids: UnsafeMutablePointer<Int32>
        var counts: UnsafeMutablePointer<UInt64>
        var capacity: Int
        var used = 0
        let width: Int

        init(denseSize: Int, width: Int) {
            slot = .allocate(capacity: denseSize)
            slot.initialize(repeating: -1, count: denseSize)
            capacity = 0
            ids = .allocate(capacity: 1)
            counts = .allocate(capacity: width)
            self.width = width
        }

        func release() {
            slot.deallocate()
            ids.deallocate()
            counts.deallocate()
        }

        /// Room for `entries` new states.
        mutating func reserve(_ entries: Int) {
            guard entries > capacity else { return }
            ids.deallocate()
            counts.deallocate()
            capacity = max(entries, capacity * 2)
            ids = .allocate(capacity: capacity)
            counts = .allocate(capacity: capacity * width)
        }

        /// The finished layer without zero counts; the slots are cleared for the next position.
        mutating func finish() -> Layer {
            var layer = Layer()
            layer.ids.reserveCapacity(used)
            layer.counts.reserveCapacity(used * width)
            for k in 0..<used {
                let id = ids[k]
                slot[Int(id)] = -1
                if !FixedWidth.isZero(counts, k * width, width: width) {
                    layer.ids.append(id)
                    layer.counts.append(contentsOf: UnsafeBufferPointer(start: counts + k * width, count: width))
                }
            }
            used = 0
            return layer
        }
    }

    /// The offset of state `id`'s count in the scratch layer, adding it (zeroed) on first touch.
    @inline(__always)
    private static func offset(
        _ id: Int, slot: UnsafeMutablePointer<Int32>, ids: UnsafeMutablePointer<Int32>,
        counts: UnsafeMutablePointer<UInt64>, used: inout Int, width: Int
    ) -> Int {
        let s = slot[id]
        if s >= 0 { return Int(s) * width }
        slot[id] = Int32(used)
        ids[used] = Int32(id)
        let at = used * width
        (counts + at).initialize(repeating: 0, count: width)
        used += 1
        return at
    }

    /// Forward dynamic programming: layer `i` holds each state after `i` characters with the
    /// number of prefixes reaching it.
    /// - Parameters:
    ///   - keepTables: keep every layer (for exact sampling), not only the last.
    ///   - work: the work done so far, shared by the passes of one preparation; this pass adds its own.
    ///   - workLimit: the most work allowed in all (``PasswordSpace/maximumWork`` by default).
    /// - Throws: `limitExceeded` when the work or the number of states passes its limit.
    func forward(keepTables: Bool, work: inout Int, workLimit: Int = PasswordSpace.maximumWork) throws(SWCredError)
        -> Tables
    {
        guard feasible else { return Tables(layers: [], total: .zero) }
        let g = geometry
        var scratch = Scratch(denseSize: denseSize, width: width)
        defer { scratch.release() }
        let groupCount = (Int(fullMask) + 1) << markBits
        let totals = UnsafeMutablePointer<UInt64>.allocate(capacity: g.tracksLast ? groupCount * width : 1)
        totals.initialize(repeating: 0, count: g.tracksLast ? groupCount * width : 1)
        let seen = UnsafeMutablePointer<Bool>.allocate(capacity: groupCount)
        seen.initialize(repeating: false, count: groupCount)
        let groups = UnsafeMutablePointer<Int>.allocate(capacity: groupCount)
        defer {
            totals.deallocate()
            seen.deallocate()
            groups.deallocate()
        }
        var one = [UInt64](repeating: 0, count: width)
        one[0] = 1
        var current = Layer(ids: [Int32(id(0, false, noneIndex, 0))], counts: one)
        var layers: [Layer] = keepTables ? [current] : []
        for i in 0..<shape.count {
            let plainMembers = shape.plain[i].members
            let markedMembers = shape.marked[i].members
            if g.tracksLast {
                let bulk = min(groupCount, current.ids.count) * (plainMembers.count + markedMembers.count)
                work += Self.workEstimate(states: current.ids.count, bulk: bulk, width: width)
                try checkWork(work, limit: workLimit, position: i)
                // At most two new states per special successor (three per state), and one per bulk transition.
                scratch.reserve(min(denseSize, current.ids.count * 6 + bulk))
                advanceTracked(
                    current, plain: shape.plain[i], marked: shape.marked[i], plainMembers: plainMembers,
                    markedMembers: markedMembers, scratch: &scratch, totals: totals, seen: seen, groups: groups)
            } else {
                // Characters with equal signatures lead to equal states: group them.
                let plainGroups = Self.signatureGroups(plainMembers, signature)
                let markedGroups = Self.signatureGroups(markedMembers, signature)
                let bulk = current.ids.count * (plainGroups.count + markedGroups.count)
                work += Self.workEstimate(states: current.ids.count, bulk: bulk, width: width) / 12
                try checkWork(work, limit: workLimit, position: i)
                scratch.reserve(min(denseSize, bulk))
                advanceUntracked(
                    current, plainGroups: plainGroups.map { ($0.signature, UInt64($0.members.count)) },
                    markedGroups: markedGroups.map { ($0.signature, UInt64($0.members.count)) }, scratch: &scratch)
            }
            current = scratch.finish()
            guard current.ids.count <= PasswordSpace.maximumStates else {
                throw SWCredError(
                    .limitExceeded,
                    "the rules are too complex to count exactly (more than \(PasswordSpace.maximumStates) states at position \(i + 1))"
                )
            }
            if keepTables { layers.append(current) }
        }
        var total = [UInt64](repeating: 0, count: width)
        total.withUnsafeMutableBufferPointer { t in
            current.counts.withUnsafeBufferPointer { c in
                for k in current.ids.indices where isFinal(current.ids[k]) {
                    FixedWidth.add(t.baseAddress!, 0, c.baseAddress!, k * width, width: width)
                }
            }
        }
        return Tables(layers: layers, total: BigUInt(words: total))
    }

    /// One position with the last character tracked: per (mask, flag) group, the sum of its
    /// states goes to every character in bulk; each state's special successors (same character,
    /// one above, one below) take back the bulk share and add their true transition.
    private func advanceTracked(
        _ current: Layer, plain: ASCIISet, marked: ASCIISet, plainMembers: [UInt8], markedMembers: [UInt8],
        scratch: inout Scratch, totals: UnsafeMutablePointer<UInt64>, seen: UnsafeMutablePointer<Bool>,
        groups: UnsafeMutablePointer<Int>
    ) {
        let g = geometry
        let width = g.width
        let noneIndex = g.noneIndex
        let repeatTracked = g.repeatLimit != 0
        let sequenceTracked = g.sequenceLimit != 0
        let groupShift = g.runBits + g.lastBits
        let markBits = g.markBits
        let slot = scratch.slot
        let ids = scratch.ids
        let counts = scratch.counts
        var used = scratch.used
        var groupCount = 0
        signature.withUnsafeBufferPointer { signatureBuffer in
            index.withUnsafeBufferPointer { indexBuffer in
                universe.withUnsafeBufferPointer { universeBuffer in
                    current.ids.withUnsafeBufferPointer { currentIds in
                        current.counts.withUnsafeBufferPointer { currentCounts in
                            let sig = signatureBuffer.baseAddress!
                            let idx = indexBuffer.baseAddress!
                            let uni = universeBuffer.baseAddress!
                            let source = currentCounts.baseAddress!
                            for k in 0..<currentIds.count {
                                let stateId = Int(currentIds[k])
                                let state = g.decode(stateId)
                                let group = stateId >> groupShift
                                if !seen[group] {
                                    seen[group] = true
                                    groups[groupCount] = group
                                    groupCount += 1
                                }
                                FixedWidth.add(totals, group * width, source, k * width, width: width)
                                guard state.last != noneIndex else { continue }
                                let previous = uni[state.last]
                                // The special successors: the same character, one above, one below.
                                var candidates: (UInt8, UInt8, UInt8) = (0, 0, 0)
                                var n = 0
                                if repeatTracked {
                                    candidates.0 = previous
                                    n = 1
                                }
                                if sequenceTracked, let range = RunLengths.sequenceRange(of: UInt32(previous)) {
                                    if range.contains(UInt32(previous) + 1) {
                                        if n == 0 { candidates.0 = previous + 1 } else { candidates.1 = previous + 1 }
                                        n += 1
                                    }
                                    if previous > 0, range.contains(UInt32(previous) - 1) {
                                        switch n {
                                        case 0: candidates.0 = previous - 1
                                        case 1: candidates.1 = previous - 1
                                        default: candidates.2 = previous - 1
                                        }
                                        n += 1
                                    }
                                }
                                for j in 0..<n {
                                    let c = j == 0 ? candidates.0 : j == 1 ? candidates.1 : candidates.2
                                    let isMarked = marked.contains(c)
                                    guard plain.contains(c) || (isMarked && !state.marked) else { continue }
                                    let nextMask = state.mask | sig[Int(c)]
                                    let nextMarked = state.marked || isMarked
                                    let ci = Int(idx[Int(c)])
                                    let generic = Self.offset(
                                        g.id(nextMask, nextMarked, ci, 0), slot: slot, ids: ids, counts: counts,
                                        used: &used, width: width)
                                    FixedWidth.subtract(counts, generic, source, k * width, width: width)
                                    let run = g.nextRun(previous, state.run, c)
                                    if run >= 0 {
                                        let target = Self.offset(
                                            g.id(nextMask, nextMarked, ci, run), slot: slot, ids: ids, counts: counts,
                                            used: &used, width: width)
                                        FixedWidth.add(counts, target, source, k * width, width: width)
                                    }
                                }
                            }
                            for q in 0..<groupCount {
                                let group = groups[q]
                                let mask = UInt32(group >> markBits)
                                let alreadyMarked = group & markBits == 1
                                let from = group * width
                                for c in plainMembers {
                                    let at = Self.offset(
                                        g.id(mask | sig[Int(c)], alreadyMarked, Int(idx[Int(c)]), 0), slot: slot,
                                        ids: ids, counts: counts, used: &used, width: width)
                                    FixedWidth.add(counts, at, totals, from, width: width)
                                }
                                if !alreadyMarked {
                                    for c in markedMembers {
                                        let at = Self.offset(
                                            g.id(mask | sig[Int(c)], true, Int(idx[Int(c)]), 0), slot: slot, ids: ids,
                                            counts: counts, used: &used, width: width)
                                        FixedWidth.add(counts, at, totals, from, width: width)
                                    }
                                }
                                (totals + from).update(repeating: 0, count: width)
                                seen[group] = false
                            }
                        }
                    }
                }
            }
        }
        scratch.used = used
    }

    /// One position without run tracking: every state moves to (mask | signature, flag) once per
    /// signature group, weighted by the group's size.
    private func advanceUntracked(
        _ current: Layer, plainGroups: [(UInt32, UInt64)], markedGroups: [(UInt32, UInt64)], scratch: inout Scratch
    ) {
        let g = geometry
        let width = g.width
        let slot = scratch.slot
        let ids = scratch.ids
        let counts = scratch.counts
        var used = scratch.used
        current.ids.withUnsafeBufferPointer { currentIds in
            current.counts.withUnsafeBufferPointer { currentCounts in
                let source = currentCounts.baseAddress!
                for k in 0..<currentIds.count {
                    let state = g.decode(Int(currentIds[k]))
                    for (signature, size) in plainGroups {
                        let at = Self.offset(
                            g.id(state.mask | signature, state.marked, 0, 0), slot: slot, ids: ids, counts: counts,
                            used: &used, width: width)
                        FixedWidth.addProduct(counts, at, source, k * width, size, width: width)
                    }
                    if state.marked { continue }
                    for (signature, size) in markedGroups {
                        let at = Self.offset(
                            g.id(state.mask | signature, true, 0, 0), slot: slot, ids: ids, counts: counts,
                            used: &used, width: width)
                        FixedWidth.addProduct(counts, at, source, k * width, size, width: width)
                    }
                }
            }
        }
        scratch.used = used
    }

    /// The work of one position, in units of about 4 ns of a release build on this project's CI
    /// machine: a state visit costs about 20 units plus three per word of its count (memory access
    /// to the dense slots, and the kept tables), a bulk transition about 12 plus two per word. The
    /// per-word weights are set from a fuzzing build (address sanitizer), where each word costs more.
    /// Without run tracking the same estimate is divided by 12 (measured: no special successors,
    /// few signature groups).
    static func workEstimate(states: Int, bulk: Int, width: Int) -> Int {
        states * (20 + 3 * width) + bulk * (12 + 2 * width)
    }

    private func checkWork(_ work: Int, limit: Int, position i: Int) throws(SWCredError) {
        guard work <= limit else {
            throw SWCredError(
                .limitExceeded,
                "the rules are too complex to count exactly (the counting work limit was reached at position \(i + 1) of \(shape.count))"
            )
        }
    }

    /// The characters of `members` grouped by required-set signature, in a fixed order.
    static func signatureGroups(_ members: [UInt8], _ signature: [UInt32]) -> [(signature: UInt32, members: [UInt8])] {
        var groups: [(signature: UInt32, members: [UInt8])] = []
        for c in members {
            let sig = signature[Int(c)]
            if let k = groups.firstIndex(where: { $0.signature == sig }) {
                groups[k].members.append(c)
            } else {
                groups.append((sig, [c]))
            }
        }
        return groups
    }

    // MARK: Sampling

    /// A uniform member of this shape's V, built right to left from the forward tables: each
    /// predecessor is chosen with probability proportional to the prefixes reaching it.
    func sample<R: RandomSource>(from tables: Tables, using source: inout R) throws(SWCredError) -> [UInt8] {
        guard !tables.total.isZero, tables.layers.count == shape.count + 1 else {
            throw SWCredError(.infeasible, "no password satisfies the constraints")
        }
        let finalLayer = tables.layers[shape.count]
        let finals = finalLayer.ids.indices.filter { isFinal(finalLayer.ids[$0]) }
        var chosen = try Self.choose(
            finals, weights: finalLayer.counts, width: width, total: tables.total, using: &source)
        var state = Int(finalLayer.ids[chosen])
        var output = [UInt8](repeating: 0, count: shape.count)
        var i = shape.count
        while i > 0 {
            let previous = tables.layers[i - 1]
            let markedSet = shape.marked[i - 1]
            if tracksLast {
                let c = universe[decode(state).last]
                let isMarked = markedSet.contains(c)
                var options: [Int] = []
                var total = [UInt64](repeating: 0, count: width)
                previous.counts.withUnsafeBufferPointer { counts in
                    total.withUnsafeMutableBufferPointer { t in
                        for k in previous.ids.indices {
                            let p = decode(Int(previous.ids[k]))
                            if step(p.mask, p.marked, p.last, p.run, c, isMarked: isMarked) == state {
                                options.append(k)
                                FixedWidth.add(t.baseAddress!, 0, counts.baseAddress!, k * width, width: width)
                            }
                        }
                    }
                }
                chosen = try Self.choose(
                    options, weights: previous.counts, width: width, total: BigUInt(words: total), using: &source)
                output[i - 1] = c
                state = Int(previous.ids[chosen])
            } else {
                // Options: (predecessor, signature group) weighted by count × group size; then a
                // uniform character of the group.
                let target = decode(state)
                var groups = Self.signatureGroups(shape.plain[i - 1].members, signature).map { ($0, false) }
                groups += Self.signatureGroups(markedSet.members, signature).map { ($0, true) }
                var options: [(predecessor: Int, group: Int)] = []
                var weights: [UInt64] = []
                var total = [UInt64](repeating: 0, count: width)
                previous.counts.withUnsafeBufferPointer { counts in
                    for k in previous.ids.indices {
                        let p = decode(Int(previous.ids[k]))
                        for (g, (group, isMarked)) in groups.enumerated() {
                            guard !(isMarked && p.marked), (p.marked || isMarked) == target.marked,
                                p.mask | group.signature == target.mask
                            else { continue }
                            options.append((k, g))
                            weights.append(contentsOf: repeatElement(0, count: width))
                            let at = weights.count - width
                            weights.withUnsafeMutableBufferPointer { w in
                                FixedWidth.addProduct(
                                    w.baseAddress!, at, counts.baseAddress!, k * width, UInt64(group.members.count),
                                    width: width)
                            }
                            total.withUnsafeMutableBufferPointer { t in
                                weights.withUnsafeBufferPointer { w in
                                    FixedWidth.add(t.baseAddress!, 0, w.baseAddress!, at, width: width)
                                }
                            }
                        }
                    }
                }
                let pick = try Self.choose(
                    Array(options.indices), weights: weights, width: width, total: BigUInt(words: total),
                    using: &source)
                let members = groups[options[pick].group].0.members
                output[i - 1] = members[try source.uniform(members.count)]
                state = Int(previous.ids[options[pick].predecessor])
            }
            i -= 1
        }
        return output
    }

    /// Picks one of `options` with probability weight / total; option `k`'s weight is the `width`
    /// words at `k · width` of `weights`.
    static func choose<R: RandomSource>(
        _ options: [Int], weights: [UInt64], width: Int, total: BigUInt, using source: inout R
    ) throws(SWCredError) -> Int {
        guard !total.isZero, let lastOption = options.last else {
            throw SWCredError(.internalError, "exact sampling found no option (counting invariant broken)")
        }
        var pick = try total.randomBelow(using: &source).words(count: width)
        return pick.withUnsafeMutableBufferPointer { p in
            weights.withUnsafeBufferPointer { w in
                for option in options {
                    let at = option * width
                    if FixedWidth.less(p.baseAddress!, 0, w.baseAddress!, at, width: width) { return option }
                    FixedWidth.subtract(p.baseAddress!, 0, w.baseAddress!, at, width: width)
                }
                return lastOption
            }
        }
    }
}
