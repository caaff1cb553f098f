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
    private let width: Int
    /// Cells per row: the classes, then the never-built column, the state number, the tag count and
    /// the tags' start in `tagPool`.
    private let stride: Int
    /// Byte (0…255) → column; folded first when ``caseFolded``; bytes ≥ 0x80 → the never-built column.
    private let column: UnsafeMutablePointer<Int32>
    /// The row offset of the state before any character.
    let start: Int

    private let ops: [Op]
    private let entries: [Int32]
    /// Whether the programs were compiled case-folded (input is folded; classes use folded rules).
    let caseFolded: Bool
    /// The byte budget of the state cache.
    let byteBudget: Int
    private let maximumStates: Int

    /// `maximumStates × stride` cells.
    private let table: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) private var sets: [[Int32]] = []
    /// The tags of the programs that accept in each state, ascending, one run per state.
    @exclusivity(unchecked) private var tagPool: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) private var tagPoolCapacity = 64
    @exclusivity(unchecked) private var tagPoolCount = 0
    @exclusivity(unchecked) private var tagScratch: [Int32] = []
    @exclusivity(unchecked) private var index: [[Int32]: Int32] = [:]
    /// Transitions on scalars ≥ 0x80: (state number << 32 | scalar) → state number.
    @exclusivity(unchecked) private var wide: [UInt64: Int32] = [:]
    @exclusivity(unchecked) private var usedBytes = 0
    /// How many times the cache was emptied because the budget was reached.
    @exclusivity(unchecked) private(set) var flushes = 0

    /// Self-loop masks (two words per state number: bytes 0…63, 64…127), allocated on the first
    /// long text; valid while `maskEpochs[state] == epoch`.
    @exclusivity(unchecked) private var masks: UnsafeMutablePointer<UInt64>?
    @exclusivity(unchecked) private var maskEpochs: UnsafeMutablePointer<UInt32>?
    @exclusivity(unchecked) private var epoch: UInt32 = 1

    @exclusivity(unchecked) private var mark: [UInt32]
    @exclusivity(unchecked) private var generation: UInt32 = 0
    @exclusivity(unchecked) private var stack: [Int32] = []
    @exclusivity(unchecked) private var scratch: [Int32] = []

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

    /// Empties the cache down to the dead and start states.
    private func reset() {
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
    private func insert(_ set: [Int32]) -> Int32 {
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

    /// The state after reading `value` (already folded when ``caseFolded``) in `state`, when the
    /// table has no entry for it: a scalar ≥ 0x80 or a transition not built yet.
    private func slowStep(_ state: Int, _ value: UInt32) -> Int {
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

    /// The state (row offset) after reading the bytes of `bytes` as scalars (ASCII folded here
    /// when ``caseFolded``; a byte ≥ 0x80 is read as the scalar of that value).
    @inline(__always)
    func run(ascii bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let count = bytes.count
        if count > Self.longText { return runLong(base, count) }
        var state = start
        var i = 0
        while i < count {
            let next = step(state, base[i])
            if next == Self.dead { return next }
            state = next
            i &+= 1
        }
        return state
    }

    /// One byte: the cached transition, or the slow step that builds it (``dead`` either way
    /// when the text cannot match).
    @inline(__always)
    private func step(_ state: Int, _ byte: UInt8) -> Int {
        let next = Int(table[state &+ Int(column[Int(byte)])])
        if next > 0 { return next }
        if next == Self.dead { return next }
        return slowStep(state, UInt32(caseFolded ? Self.foldASCII(byte) : byte))
    }

    /// ``run(ascii:)`` for long texts: a state that loops on the byte it reads skips every
    /// following byte it loops on, with the state's self-loop mask.
    private func runLong(_ base: UnsafePointer<UInt8>, _ count: Int) -> Int {
        var state = start
        var i = 0
        while i < count {
            let next = step(state, base[i])
            if next == Self.dead { return next }
            i &+= 1
            if next == state {
                let (low, high, kind) = loopMask(state)
                // Eight bytes at a time while all of them are surely loop bytes.
                let ones: UInt64 = 0x0101_0101_0101_0101
                let highs: UInt64 = 0x8080_8080_8080_8080
                if kind & 0xFF == 1 {
                    // The state loops on one byte only.
                    let only = ones &* ((kind >> 8) & 0xFF)
                    while i &+ 8 <= count, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) == only {
                        i &+= 8
                    }
                } else if kind & 0xFF == 2 {
                    // The state loops on every printable byte but at most two.
                    let first = ones &* ((kind >> 8) & 0xFF)
                    let second = ones &* ((kind >> 16) & 0xFF)
                    while i &+ 8 <= count {
                        let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                        let below = (word &- ones &* 0x21) & ~word & highs
                        let above = ((word &+ ones) | word) & highs
                        let x1 = word ^ first
                        let x2 = word ^ second
                        let stop = below | above | ((x1 &- ones) & ~x1 & highs) | ((x2 &- ones) & ~x2 & highs)
                        if stop != 0 { break }
                        i &+= 8
                    }
                }
                while i < count {
                    let b = base[i]
                    let word = b < 64 ? low : (b < 128 ? high : 0)
                    if (word >> UInt64(b & 63)) & 1 == 0 { break }
                    i &+= 1
                }
            }
            state = next
        }
        return state
    }

    /// The bytes (< 0x80) whose cached transition from `state` is `state` itself: bit `b` of
    /// (bytes 0…63, bytes 64…127), and its shape: kind 1 (one byte, in bits 8…15), kind 2 (every
    /// printable byte but the two in bits 8…15 and 16…23, which may repeat or be 0x20), else 0.
    /// Built on demand, kept until a transition out of the state is added or the cache is emptied
    /// (a stale mask would only miss loops, never invent one).
    private func loopMask(_ state: Int) -> (UInt64, UInt64, UInt64) {
        let id = Int(table[state + width + 1])
        if masks == nil {
            masks = .allocate(capacity: 3 * maximumStates)
            let epochs = UnsafeMutablePointer<UInt32>.allocate(capacity: maximumStates)
            epochs.initialize(repeating: 0, count: maximumStates)
            maskEpochs = epochs
        }
        guard let masks, let maskEpochs else { return (0, 0, 0) }
        if maskEpochs[id] == epoch { return (masks[3 * id], masks[3 * id + 1], masks[3 * id + 2]) }
        var low: UInt64 = 0
        var high: UInt64 = 0
        var missing: [UInt64] = []
        for byte in 0..<128 {
            if Int(table[state + Int(column[byte])]) == state {
                if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
            } else if byte > 0x20, byte < 0x7F, missing.count < 3 {
                missing.append(UInt64(byte))
            }
        }
        var kind: UInt64 = 0
        if low.nonzeroBitCount + high.nonzeroBitCount == 1 {
            kind = 1 | UInt64(low != 0 ? low.trailingZeroBitCount : 64 + high.trailingZeroBitCount) << 8
        } else if missing.count <= 2 {
            let first = missing.first ?? 0x20
            kind = 2 | first << 8 | (missing.last ?? first) << 16
        }
        masks[3 * id] = low
        masks[3 * id + 1] = high
        masks[3 * id + 2] = kind
        maskEpochs[id] = epoch
        return (low, high, kind)
    }

    /// The state (row offset) after reading the Unicode scalars of `text` (folded here when ``caseFolded``).
    func run(scalars text: String) -> Int {
        var state = start
        for scalar in text.unicodeScalars {
            state = step(state, caseFolded ? WildcardPattern.fold(scalar) : scalar.value)
            if state == Self.dead { return state }
        }
        return state
    }

    /// The state (row offset) after reading the scalars of well-formed UTF-8 `bytes` (folded
    /// here when ``caseFolded``).
    func run(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var state = start
        var i = 0
        let count = bytes.count
        while i < count {
            let lead = UInt32(bytes[i])
            var value: UInt32
            var length: Int
            switch lead {
            case 0..<0x80: value = lead; length = 1
            case 0xC0..<0xE0: value = lead & 0x1F; length = 2
            case 0xE0..<0xF0: value = lead & 0x0F; length = 3
            default: value = lead & 0x07; length = 4
            }
            guard i + length <= count else { return Self.dead }
            for k in 1..<max(length, 1) { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
            i += length
            if caseFolded {
                if value < 128 {
                    value = UInt32(Self.foldASCII(UInt8(value)))
                } else if let scalar = Unicode.Scalar(value) {
                    value = WildcardPattern.fold(scalar)
                }
            }
            state = step(state, value)
            if state == Self.dead { return state }
        }
        return state
    }

    @inline(__always)
    private func step(_ state: Int, _ value: UInt32) -> Int {
        if value < 128 {
            let next = Int(table[state &+ Int(column[Int(value)])])
            if next >= 0 { return next }
        }
        return slowStep(state, value)
    }

    /// Whether any program accepts the bytes of `bytes` (as ``run(ascii:)``).
    func accepts(ascii bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        accepts(run(ascii: bytes))
    }

    /// Whether any program accepts `text`.
    func accepts(scalars text: String) -> Bool {
        accepts(run(scalars: text))
    }
}
