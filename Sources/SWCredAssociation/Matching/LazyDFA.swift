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
/// The cached transitions form one flat table of `Int32`: a state is the offset of its row, a row
/// holds one entry per byte class (the offset of the next state; -1 not built yet; 0 the dead
/// state) and four more cells (a column never built, where bytes ≥ 0x80 go; the state's number;
/// how many tags accept there; where they start in the tag pool). Reading a cached transition is two loads and an add. On long texts
/// a state that loops on itself skips the run of bytes it loops on with a 128-bit mask.
///
/// Not thread-safe: the cache fills as texts are matched. One instance per thread.
///
/// The subset construction and the cache are in `LazyDFA+Construction.swift`, reading texts in
/// `LazyDFA+Running.swift`. The table and cache fields are internal so that those files can reach
/// them; nothing else in the module touches them (only ``tags(_:)``, ``accepts(_:)`` and the
/// `run`/`accepts` methods are for callers).
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

    /// The state (row offset) every transition out of which is itself: no tag can be reached any more.
    static let dead = 0
    /// Texts longer than this are read with self-loop skipping.
    static let longText = 128
    /// Number of byte classes: ASCII values no instruction tells apart share a column.
    let width: Int
    /// Cells per row: the classes, then the never-built column, the state number, the tag count and
    /// the tags' start in `tagPool`.
    let stride: Int
    /// Byte (0…255) → column; folded first when ``caseFolded``; bytes ≥ 0x80 → the never-built column.
    let column: UnsafeMutablePointer<Int32>
    /// The row offset of the state before any character.
    let start: Int

    let ops: [Op]
    let entries: [Int32]
    /// Whether the programs were compiled case-folded (input is folded; classes use folded rules).
    let caseFolded: Bool
    /// The byte budget of the state cache.
    let byteBudget: Int
    let maximumStates: Int

    /// `maximumStates × stride` cells.
    let table: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) var sets: [[Int32]] = []
    /// The tags of the programs that accept in each state, ascending, one run per state.
    @exclusivity(unchecked) var tagPool: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) var tagPoolCapacity = 64
    @exclusivity(unchecked) var tagPoolCount = 0
    @exclusivity(unchecked) var tagScratch: [Int32] = []
    @exclusivity(unchecked) var index: [[Int32]: Int32] = [:]
    /// Transitions on scalars ≥ 0x80: (state number << 32 | scalar) → state number.
    @exclusivity(unchecked) var wide: [UInt64: Int32] = [:]
    @exclusivity(unchecked) var usedBytes = 0
    /// How many times the cache was emptied because the budget was reached.
    @exclusivity(unchecked) var flushes = 0

    /// Self-loop masks (two words per state number: bytes 0…63, 64…127), allocated on the first
    /// long text; valid while `maskEpochs[state] == epoch`.
    @exclusivity(unchecked) var masks: UnsafeMutablePointer<UInt64>?
    @exclusivity(unchecked) var maskEpochs: UnsafeMutablePointer<UInt32>?
    @exclusivity(unchecked) var epoch: UInt32 = 1

    @exclusivity(unchecked) var mark: [UInt32]
    @exclusivity(unchecked) var generation: UInt32 = 0
    @exclusivity(unchecked) var stack: [Int32] = []
    @exclusivity(unchecked) var scratch: [Int32] = []

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
        var ids: [Int: Int32] = [:]
        var folded = [Int32](repeating: 0, count: 128)
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
            folded[byte] = ids[signature] ?? 0
        }
        let width = ids.count
        let column = UnsafeMutablePointer<Int32>.allocate(capacity: 256)
        for byte in 0..<256 {
            if byte >= 128 {
                column[byte] = Int32(width)
            } else {
                column[byte] = folded[caseFolded ? Int(Self.foldASCII(UInt8(byte))) : byte]
            }
        }
        self.column = column
        self.width = width
        self.stride = width + 4
        self.start = width + 4
        self.ops = ops
        self.entries = entries
        self.caseFolded = caseFolded
        self.byteBudget = byteBudget
        // Half the budget for the rows and masks, half for the sets, tags and index.
        self.maximumStates = max(4, byteBudget / ((width + 4) * 4 * 2 + 28))
        self.table = .allocate(capacity: maximumStates * (width + 4))
        self.tagPool = .allocate(capacity: 64)
        self.mark = [UInt32](repeating: 0, count: ops.count)
        reset()
    }

    deinit {
        table.deallocate()
        column.deallocate()
        tagPool.deallocate()
        masks?.deallocate()
        maskEpochs?.deallocate()
    }

    @inline(__always)
    static func foldASCII(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    /// Number of states in the cache now.
    var stateCount: Int { sets.count }
    /// Bytes the cache holds now (estimate: rows, sets, tags).
    var cacheBytes: Int { usedBytes }

    /// The tags accepting in `state` (a row offset from a run), ascending. Valid until this
    /// automaton next runs (a new state may move the pool).
    @inline(__always)
    func tags(_ state: Int) -> UnsafeBufferPointer<Int32> {
        UnsafeBufferPointer(start: tagPool + Int(table[state &+ width &+ 3]), count: Int(table[state &+ width &+ 2]))
    }

    /// Whether any tag accepts in `state`.
    @inline(__always)
    func accepts(_ state: Int) -> Bool {
        table[state &+ width &+ 2] != 0
    }
}
