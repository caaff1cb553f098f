/// A lazily determinised automaton over several tagged ``WildcardPattern`` programs.
///
/// The wildcard programs of many rules are laid side by side as one nondeterministic automaton,
/// each `accept` carrying the rule's tag. A deterministic state is the set of live instructions
/// after reading a prefix of the text; it is built the first time the text reaches it and kept in
/// a cache, so deciding a text costs one table look-up per character whatever the number of
/// rules, and never backtracks. The cache has a byte budget: when a new state would exceed it, the
/// cache is emptied and rebuilt from the current state on (the text is still read once, each
/// character at most costing one step of the nondeterministic automaton). A hostile file
/// therefore costs time, never unbounded memory.
///
/// Not thread-safe: the cache fills as texts are matched. One instance per thread.
final class LazyDFA {
    /// One instruction of the combined automaton (``WildcardPattern/Instruction`` relocated).
    enum Op {
        case scalar(UInt32)
        case any
        case character(WildcardPattern.CharacterClass)
        case star
        case fork([Int32])
        case jump(Int32)
        case accept(Int32)
    }

    /// The state every transition out of which is itself: no tag can be reached any more.
    static let dead: Int32 = 0
    /// The state before any character.
    static let start: Int32 = 1
    /// Width of the dense transition rows: the number of ASCII byte classes (bytes no
    /// instruction tells apart share a column); other scalars go through a dictionary.
    private let width: Int
    /// ASCII value → column.
    private let column: UnsafeMutablePointer<Int32>

    private let ops: [Op]
    private let entries: [Int32]
    /// Whether the programs were compiled case-folded (input is folded; classes use folded rules).
    let caseFolded: Bool
    /// The byte budget of the state cache.
    let byteBudget: Int
    private let maximumStates: Int

    /// Dense transitions, `maximumStates × 128`; -1 = not built yet.
    private let table: UnsafeMutablePointer<Int32>
    private var sets: [[Int32]] = []
    /// For each state, the tags of the programs that accept there, ascending.
    private(set) var accepts: [[Int32]] = []
    private var index: [[Int32]: Int32] = [:]
    private var wide: [UInt64: Int32] = [:]
    private var usedBytes = 0
    /// How many times the cache was emptied because the budget was reached.
    private(set) var flushes = 0

    private var mark: [UInt32]
    private var generation: UInt32 = 0
    private var stack: [Int32] = []
    private var scratch: [Int32] = []

    /// Builds the automaton of `programs` (each with the tag its `accept` reports), in order:
    /// tags must not decrease along `programs`, so that accepting tags come out sorted.
    init(programs: [(program: [WildcardPattern.Instruction], tag: Int32)], caseFolded: Bool, byteBudget: Int) {
        var ops: [Op] = []
        var entries: [Int32] = []
        for (program, tag) in programs {
            let base = Int32(ops.count)
            entries.append(base)
            for instruction in program {
                switch instruction {
                case .scalar(let value): ops.append(.scalar(value))
                case .any: ops.append(.any)
                case .character(let cls): ops.append(.character(cls))
                case .star: ops.append(.star)
                case .fork(let targets): ops.append(.fork(targets.map { Int32($0) + base }))
                case .jump(let target): ops.append(.jump(Int32(target) + base))
                case .accept: ops.append(.accept(tag))
                }
            }
        }
        // Byte classes: each literal ASCII value is its own class; the other bytes are grouped by
        // which character classes (`$(alpha)`…) contain them.
        var literals = Set<UInt32>()
        var classes: [WildcardPattern.CharacterClass] = []
        for op in ops {
            switch op {
            case .scalar(let value) where value < 128: literals.insert(value)
            case .character(let cls) where !classes.contains(cls): classes.append(cls)
            default: break
            }
        }
        let column = UnsafeMutablePointer<Int32>.allocate(capacity: 128)
        var ids: [Int: Int32] = [:]
        for byte in 0..<128 {
            var signature = 0
            if literals.contains(UInt32(byte)) {
                signature = 1_000 + byte
            } else if let scalar = Unicode.Scalar(UInt32(byte)) {
                for (bit, cls) in classes.enumerated() where cls.contains(scalar, caseFolded: caseFolded) {
                    signature |= 1 << bit
                }
            }
            if ids[signature] == nil { ids[signature] = Int32(ids.count) }
            column[byte] = ids[signature] ?? 0
        }
        self.column = column
        self.width = ids.count
        self.ops = ops
        self.entries = entries
        self.caseFolded = caseFolded
        self.byteBudget = byteBudget
        self.maximumStates = max(4, byteBudget / (width * 4 * 2))
        self.table = .allocate(capacity: maximumStates * width)
        self.mark = [UInt32](repeating: 0, count: ops.count)
        reset()
    }

    deinit {
        table.deallocate()
        column.deallocate()
    }

    /// Number of states in the cache now.
    var stateCount: Int { sets.count }
    /// Bytes the cache holds now (estimate: rows, sets, tags).
    var cacheBytes: Int { usedBytes }

    /// Empties the cache down to the dead and start states.
    private func reset() {
        sets.removeAll(keepingCapacity: true)
        accepts.removeAll(keepingCapacity: true)
        index.removeAll(keepingCapacity: true)
        wide.removeAll(keepingCapacity: true)
        usedBytes = 0
        _ = insert([])
        beginClosure()
        scratch.removeAll(keepingCapacity: true)
        for entry in entries { addClosure(entry) }
        scratch.sort()
        _ = insert(scratch)
        // The dead state loops on itself.
        for column in 0..<width { table[column] = Self.dead }
    }

    private func insert(_ set: [Int32]) -> Int32 {
        let id = Int32(sets.count)
        sets.append(set)
        var tags: [Int32] = []
        for pc in set {
            if case .accept(let tag) = ops[Int(pc)], tags.last != tag { tags.append(tag) }
        }
        accepts.append(tags)
        index[set] = id
        let row = table + Int(id) * width
        row.initialize(repeating: -1, count: width)
        usedBytes += width * 4 + set.count * 8 + tags.count * 4 + 96
        return id
    }

    private func beginClosure() {
        generation &+= 1
        if generation == 0 {
            for i in mark.indices { mark[i] = 0 }
            generation = 1
        }
    }

    /// Adds the instructions reachable from `pc` without reading into `scratch`.
    private func addClosure(_ pc: Int32) {
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

    /// The state after reading `value` (already folded when ``caseFolded``) in `state`.
    @inline(__always)
    func next(_ state: Int32, _ value: UInt32) -> Int32 {
        if value < 128 {
            let known = table[Int(state) &* width &+ Int(column[Int(value)])]
            if known >= 0 { return known }
        } else if let known = wide[UInt64(UInt32(bitPattern: state)) << 32 | UInt64(value)] {
            return known
        }
        return build(state, value)
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
        if sets.count >= maximumStates || usedBytes + width * 4 + scratch.count * 8 > byteBudget {
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
            table[Int(state) * width + Int(column[Int(value)])] = target
        } else if usedBytes + 48 <= byteBudget {
            wide[UInt64(UInt32(bitPattern: state)) << 32 | UInt64(value)] = target
            usedBytes += 48
        }
    }

    /// The final state after reading ASCII `bytes` (folded here when ``caseFolded``).
    @inline(__always)
    func run(ascii bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        var state = Self.start
        if caseFolded {
            for byte in bytes {
                let value = byte &- 0x41 < 26 ? byte | 0x20 : byte
                state = next(state, UInt32(value))
                if state == Self.dead { return state }
            }
        } else {
            for byte in bytes {
                state = next(state, UInt32(byte))
                if state == Self.dead { return state }
            }
        }
        return state
    }

    /// The final state after reading the Unicode scalars of `text` (folded here when ``caseFolded``).
    func run(scalars text: String) -> Int32 {
        var state = Self.start
        for scalar in text.unicodeScalars {
            state = next(state, caseFolded ? WildcardPattern.fold(scalar) : scalar.value)
            if state == Self.dead { return state }
        }
        return state
    }

    /// Whether any program accepts ASCII `bytes`.
    func accepts(ascii bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let state = run(ascii: bytes)
        return !accepts[Int(state)].isEmpty
    }

    /// Whether any program accepts `text`.
    func accepts(scalars text: String) -> Bool {
        let state = run(scalars: text)
        return !accepts[Int(state)].isEmpty
    }
}
