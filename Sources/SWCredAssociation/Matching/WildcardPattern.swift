/// A compiled applinks pattern: `*` (zero or more characters, crossing `/`), `?` (exactly one
/// character), literal characters, and `$(name)` substitution variables (AD-7.6, AD-7.13).
///
/// Patterns compile to a small nondeterministic automaton that is simulated breadth-first, so
/// matching takes time proportional to (text length × pattern size) whatever the pattern:
/// `*a*a*a*a*a*b` against a long run of `a` cannot backtrack exponentially. There is no escape
/// syntax. Matching is over Unicode scalars; a percent-encoded URL is ASCII, so there `?` is one
/// byte of an escape (AD-7.12).
package struct WildcardPattern: Sendable, Hashable {
    /// One-character classes of the built-in variables (AD-7.13).
    enum CharacterClass: Sendable, Hashable {
        case alpha, upper, lower, alnum, digit, xdigit

        func contains(_ scalar: Unicode.Scalar, caseFolded: Bool) -> Bool {
            let properties = scalar.properties
            switch self {
            case .alpha: return properties.isAlphabetic
            case .upper: return caseFolded ? (properties.isLowercase || properties.isUppercase) : properties.isUppercase
            case .lower: return caseFolded ? (properties.isLowercase || properties.isUppercase) : properties.isLowercase
            case .alnum: return properties.isAlphabetic || properties.generalCategory == .decimalNumber
            case .digit: return properties.generalCategory == .decimalNumber
            case .xdigit: return scalar.isASCII && scalar.properties.isASCIIHexDigit
            }
        }
    }

    enum Instruction: Sendable, Hashable {
        /// Consume exactly this scalar.
        case scalar(UInt32)
        /// Consume any one scalar.
        case any
        /// Consume one scalar of the class.
        case character(CharacterClass)
        /// Zero or more of any scalar: an epsilon to the next instruction, and a self-loop on any scalar.
        case star
        /// Epsilon to every listed instruction.
        case fork([Int])
        /// Epsilon to the instruction.
        case jump(Int)
        /// Accept.
        case accept
    }

    /// Names of the built-in variables; custom variables with these names are ignored (AD-7.13).
    static let builtInNames: Set<String> = [
        "alpha", "upper", "lower", "alnum", "digit", "xdigit", "region", "lang",
    ]

    /// The built-in `$(region)` / `$(lang)` tries, compiled once (plain and case-folded).
    static let regionTrie = trie(ISOCodes.sortedRegions, caseInsensitive: false)
    static let foldedRegionTrie = trie(ISOCodes.sortedRegions, caseInsensitive: true)
    static let languageTrie = trie(ISOCodes.sortedLanguages, caseInsensitive: false)
    static let foldedLanguageTrie = trie(ISOCodes.sortedLanguages, caseInsensitive: true)

    private static func trie(_ words: [String], caseInsensitive: Bool) -> [Instruction] {
        var builder = Builder(caseInsensitive: caseInsensitive)
        builder.appendTrie(words)
        return builder.program
    }

    /// The compiled program (read by ``LazyDFA`` to build the combined automaton of a file).
    let program: [Instruction]
    private var literalPrefix: [UInt32]
    /// The pattern as written.
    package let source: String
    /// Variables the pattern uses that are neither built in nor defined: the pattern never matches.
    let undefinedVariables: [String]
    /// Whether pattern and text are case-folded.
    let caseInsensitive: Bool

    /// Compiles `pattern`.
    ///
    /// - Parameters:
    ///   - pattern: the pattern text.
    ///   - variables: custom substitution variables, name → values (values may hold `*` and `?`,
    ///     not other variables); pass `nil` to treat `$(` as literal text (legacy `paths`).
    ///   - caseInsensitive: fold pattern and text (`caseSensitive: false`, AD-7.11).
    package init(_ pattern: String, variables: [String: [String]]? = [:], caseInsensitive: Bool = false) {
        self.source = pattern
        self.caseInsensitive = caseInsensitive
        var builder = Builder(caseInsensitive: caseInsensitive)
        var undefined: [String] = []
        let scalars = Array(pattern.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if let variables, scalar == "$", index + 1 < scalars.count, scalars[index + 1] == "(",
                let close = scalars[(index + 2)...].firstIndex(where: { $0 == ")" }),
                !scalars[(index + 2)..<close].contains(where: { $0 == "$" || $0 == "(" })
            {
                var name = ""
                name.unicodeScalars.append(contentsOf: scalars[(index + 2)..<close])
                if !builder.appendVariable(name, custom: variables) {
                    undefined.append(name)
                }
                index = close + 1
                continue
            }
            builder.appendPatternScalar(scalar)
            index += 1
        }
        builder.program.append(.accept)
        self.program = builder.program
        self.literalPrefix = Self.literalPrefix(of: builder.program)
        self.undefinedVariables = undefined
    }

    /// Whether the whole of `text` matches. Never throws, never traps.
    package func matches(_ text: String) -> Bool {
        guard undefinedVariables.isEmpty else { return false }
        // Fast rejection: the literal characters the pattern starts with must start the text.
        var scalars = text.unicodeScalars.makeIterator()
        for expected in literalPrefix {
            guard let scalar = scalars.next(), (caseInsensitive ? Self.fold(scalar) : scalar.value) == expected else {
                return false
            }
        }
        return run(text.unicodeScalars.map { caseInsensitive ? Self.fold($0) : $0.value })
    }

    /// The scalars every match starts with (the leading `.scalar` instructions).
    private static func literalPrefix(of program: [Instruction]) -> [UInt32] {
        var prefix: [UInt32] = []
        for instruction in program {
            guard case .scalar(let value) = instruction else { break }
            prefix.append(value)
        }
        return prefix
    }

    /// Breadth-first simulation: the set of live instructions advances one scalar at a time.
    private func run(_ text: [UInt32]) -> Bool {
        let count = program.count
        var current: [Int] = []
        var next: [Int] = []
        var mark = [Int](repeating: -1, count: count)
        var generation = 0
        var stack: [Int] = []

        func addClosure(_ start: Int, into list: inout [Int]) {
            stack.append(start)
            while let pc = stack.popLast() {
                guard mark[pc] != generation else { continue }
                mark[pc] = generation
                switch program[pc] {
                case .fork(let targets): stack.append(contentsOf: targets.reversed())
                case .jump(let target): stack.append(target)
                case .star:
                    list.append(pc)
                    stack.append(pc + 1)
                default: list.append(pc)
                }
            }
        }

        addClosure(0, into: &current)
        for value in text {
            generation += 1
            next.removeAll(keepingCapacity: true)
            for pc in current {
                switch program[pc] {
                case .scalar(let expected): if expected == value { addClosure(pc + 1, into: &next) }
                case .any: addClosure(pc + 1, into: &next)
                case .character(let cls):
                    if let scalar = Unicode.Scalar(value), cls.contains(scalar, caseFolded: caseInsensitive) {
                        addClosure(pc + 1, into: &next)
                    }
                case .star: addClosure(pc, into: &next)
                case .accept, .fork, .jump: break
                }
            }
            swap(&current, &next)
            if current.isEmpty { return false }
        }
        return current.contains { if case .accept = program[$0] { true } else { false } }
    }

    /// Simple per-scalar case folding (lowercase mapping when it is one scalar), so lengths match.
    static func fold(_ scalar: Unicode.Scalar) -> UInt32 {
        if scalar.isASCII {
            let v = scalar.value
            return (0x41...0x5A).contains(v) ? v + 0x20 : v
        }
        let mapping = scalar.properties.lowercaseMapping.unicodeScalars
        if mapping.count == 1, let first = mapping.first { return first.value }
        return scalar.value
    }

    private struct Builder {
        var program: [Instruction] = []
        let caseInsensitive: Bool

        mutating func appendPatternScalar(_ scalar: Unicode.Scalar) {
            switch scalar {
            case "*":
                // Collapse runs of '*': one star state is enough.
                if case .star? = program.last { return }
                program.append(.star)
            case "?": program.append(.any)
            default: program.append(.scalar(caseInsensitive ? WildcardPattern.fold(scalar) : scalar.value))
            }
        }

        mutating func appendLiteral(_ text: String) {
            for scalar in text.unicodeScalars {
                program.append(.scalar(caseInsensitive ? WildcardPattern.fold(scalar) : scalar.value))
            }
        }

        /// Appends an alternation of `alternatives` (each a small pattern with `*`/`?` when
        /// `wildcards`, else literal). Returns false when there is nothing to match.
        mutating func appendAlternation(_ alternatives: [String], wildcards: Bool) {
            guard !alternatives.isEmpty else {
                // An empty value list never matches: a fork to nowhere.
                program.append(.fork([]))
                return
            }
            let forkIndex = program.count
            program.append(.fork([]))
            var starts: [Int] = []
            var jumps: [Int] = []
            for alternative in alternatives {
                starts.append(program.count)
                if wildcards {
                    for scalar in alternative.unicodeScalars { appendPatternScalar(scalar) }
                } else {
                    appendLiteral(alternative)
                }
                jumps.append(program.count)
                program.append(.jump(-1))
            }
            let end = program.count
            program[forkIndex] = .fork(starts)
            for jump in jumps { program[jump] = .jump(end) }
        }

        /// Appends a program fragment built at offset 0 whose exits jump to its own end.
        mutating func appendRelocated(_ fragment: [Instruction]) {
            let base = program.count
            for instruction in fragment {
                switch instruction {
                case .fork(let targets): program.append(.fork(targets.map { $0 + base }))
                case .jump(let target): program.append(.jump(target + base))
                default: program.append(instruction)
                }
            }
        }

        /// Appends a literal alternation of `words` as a trie (one branch per distinct next
        /// character), so that `$(lang)` and `$(region)` cost a few states per step, not hundreds.
        mutating func appendTrie(_ words: [String]) {
            let folded = words.map { word in
                word.unicodeScalars.map { caseInsensitive ? WildcardPattern.fold($0) : $0.value }
            }
            var jumps: [Int] = []
            appendTrieNode(Array(Set(folded)).sorted { $0.lexicographicallyPrecedes($1) }, jumps: &jumps)
            let end = program.count
            for jump in jumps { program[jump] = .jump(end) }
        }

        /// Emits the trie for `words` (suffixes); every accepting path ends in a `.jump` recorded in `jumps`.
        private mutating func appendTrieNode(_ words: [[UInt32]], jumps: inout [Int]) {
            let forkIndex = program.count
            program.append(.fork([]))
            var starts: [Int] = []
            if words.contains(where: \.isEmpty) {
                starts.append(program.count)
                jumps.append(program.count)
                program.append(.jump(-1))
            }
            var groups: [UInt32: [[UInt32]]] = [:]
            var order: [UInt32] = []
            for word in words where !word.isEmpty {
                if groups[word[0]] == nil { order.append(word[0]) }
                groups[word[0], default: []].append(Array(word.dropFirst()))
            }
            for first in order {
                starts.append(program.count)
                program.append(.scalar(first))
                appendTrieNode(groups[first] ?? [], jumps: &jumps)
            }
            program[forkIndex] = .fork(starts)
        }

        /// Appends `$(name)`; returns false when the variable is undefined.
        mutating func appendVariable(_ name: String, custom: [String: [String]]) -> Bool {
            switch name {
            case "alpha": program.append(.character(.alpha))
            case "upper": program.append(.character(.upper))
            case "lower": program.append(.character(.lower))
            case "alnum": program.append(.character(.alnum))
            case "digit": program.append(.character(.digit))
            case "xdigit": program.append(.character(.xdigit))
            case "region":
                appendRelocated(caseInsensitive ? WildcardPattern.foldedRegionTrie : WildcardPattern.regionTrie)
            case "lang":
                appendRelocated(caseInsensitive ? WildcardPattern.foldedLanguageTrie : WildcardPattern.languageTrie)
            default:
                guard let values = custom[name] else { return false }
                appendAlternation(values, wildcards: true)
            }
            return true
        }
    }
}
