// The subset construction of ``LazyDFA``: deterministic states built on demand from the sets of
// live instructions, the cache of rows and tags, and its budget (emptied and rebuilt when full).

extension LazyDFA {
    /// Empties the cache down to the dead and start states.
    func reset() {
        sets.removeAll(keepingCapacity: true)
        tagPoolCount = 0
        index.removeAll(keepingCapacity: true)
        wide.removeAll(keepingCapacity: true)
        usedBytes = 0
        epoch &+= 1
        if epoch == 0, let maskEpochs {
            maskEpochs.update(repeating: 0, count: maximumStates)
            epoch = 1
        }
        _ = insert([])
        beginClosure()
        scratch.removeAll(keepingCapacity: true)
        for entry in entries { addClosure(entry) }
        scratch.sort()
        _ = insert(scratch)
        // The dead state loops on itself.
        for column in 0..<width { table[column] = Int32(Self.dead) }
    }

    /// Adds `set` as a new state; its number.
    func insert(_ set: [Int32]) -> Int32 {
        let id = Int32(sets.count)
        sets.append(set)
        tagScratch.removeAll(keepingCapacity: true)
        for pc in set {
            if case .accept(let tag) = ops[Int(pc)], tagScratch.last != tag { tagScratch.append(tag) }
        }
        let tagCount = tagScratch.count
        if tagPoolCount + tagCount > tagPoolCapacity {
            let capacity = max(tagPoolCapacity * 2, tagPoolCount + tagCount)
            let pool = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
            pool.update(from: tagPool, count: tagPoolCount)
            tagPool.deallocate()
            tagPool = pool
            tagPoolCapacity = capacity
        }
        for (k, tag) in tagScratch.enumerated() { tagPool[tagPoolCount + k] = tag }
        index[set] = id
        let row = table + Int(id) * stride
        row.initialize(repeating: -1, count: width + 1)
        row[width + 1] = id
        row[width + 2] = Int32(tagCount)
        row[width + 3] = Int32(tagPoolCount)
        tagPoolCount += tagCount
        usedBytes += stride * 4 + set.count * 8 + tagCount * 4 + 96
        return id
    }

    func beginClosure() {
        generation &+= 1
        if generation == 0 {
            for i in mark.indices { mark[i] = 0 }
            generation = 1
        }
    }

    /// Adds the instructions reachable from `pc` without reading into `scratch`.
    func addClosure(_ pc: Int32) {
        stack.append(pc)
        while let p = stack.popLast() {
            let i = Int(p)
            guard mark[i] != generation else { continue }
            mark[i] = generation
            switch ops[i] {
            case .fork(let targets): stack.append(contentsOf: targets)
            case .jump(let target): stack.append(target)
            case .star:
                scratch.append(p)
                stack.append(p + 1)
            default: scratch.append(p)
            }
        }
    }

    /// The state after reading `value` (already folded when ``caseFolded``) in `state`, when the
    /// table has no entry for it: a scalar ≥ 0x80 or a transition not built yet.
    func slowStep(_ state: Int, _ value: UInt32) -> Int {
        let id = table[state + width + 1]
        if value >= 128, let known = wide[UInt64(UInt32(bitPattern: id)) << 32 | UInt64(value)] {
            return Int(known) * stride
        }
        return Int(build(id, value)) * stride
    }

    private func build(_ state: Int32, _ value: UInt32) -> Int32 {
        beginClosure()
        scratch.removeAll(keepingCapacity: true)
        let scalar = Unicode.Scalar(value)
        for pc in sets[Int(state)] {
            switch ops[Int(pc)] {
            case .scalar(let expected): if expected == value { addClosure(pc + 1) }
            case .any: addClosure(pc + 1)
            case .character(let cls):
                if let scalar, cls.contains(scalar, caseFolded: caseFolded) { addClosure(pc + 1) }
            case .star: addClosure(pc)
            case .accept, .fork, .jump: break
            }
        }
        scratch.sort()
        if let known = index[scratch] {
            record(state, value, known)
            return known
        }
        if sets.count >= maximumStates || usedBytes + stride * 4 + scratch.count * 8 > byteBudget {
            // Budget reached: start the cache afresh; `state` no longer exists, so no edge is kept.
            flushes += 1
            let target = scratch
            reset()
            if let known = index[target] { return known }
            return insert(target)
        }
        let target = insert(scratch)
        record(state, value, target)
        return target
    }

    private func record(_ state: Int32, _ value: UInt32, _ target: Int32) {
        if value < 128 {
            table[Int(state) * stride + Int(column[Int(value)])] = target * Int32(stride)
            maskEpochs?[Int(state)] = 0
        } else if usedBytes + 48 <= byteBudget {
            wide[UInt64(UInt32(bitPattern: state)) << 32 | UInt64(value)] = target
            usedBytes += 48
        }
    }
}
