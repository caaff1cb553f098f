// Reading texts with a ``LazyDFA``: ASCII bytes (with self-loop skipping on long texts), Unicode
// scalars and well-formed UTF-8, one cached transition per character.

extension LazyDFA {
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
