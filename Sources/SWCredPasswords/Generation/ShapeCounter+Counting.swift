import SWCredCore

// Counting: the forward pass over dense states, with its work limit (PW-6.2).
extension ShapeCounter {
    /// The next layer under construction, in raw memory sized for the position's worst case: a
    /// dense slot per state id (-1 when absent), the ids in first-touch order and their counts.
    struct Scratch {
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
    static func offset(
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
    func advanceTracked(
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
    func advanceUntracked(
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

    func checkWork(_ work: Int, limit: Int, position i: Int) throws(SWCredError) {
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
}
