import SWCredCore

/// The applinks matcher: all `applinks` rules of one association file compiled into one
/// automaton (section 7), for deciding many URLs: the cost of a URL grows with its length, not
/// with the number of rules (about 2.5 million URLs a second).
///
/// The path patterns of every rule — every detail, every component or legacy path, in Apple's
/// order of precedence — form one lazily built deterministic automaton per combination of
/// `percentEncoded` and `caseSensitive` (the text it reads differs), whose states carry the rules
/// whose path accepts, in priority order. Only those candidates then have their query and fragment
/// checked, each pattern through its own small automaton. Decisions are those of the package's
/// reference matcher, `ReferenceApplinksMatcher`, which the tests compare it with (Decision "One
/// automaton per file").
///
/// ```swift
/// let automaton = ApplinksAutomaton(file: file)
/// let result = try automaton.match("https://example.com/coupon/2345", appID: nil)
/// ```
///
/// Not thread-safe (its state cache fills while it matches): use one instance per thread.
///
/// By concern: compiling the rules here; the compiled rule types in `ApplinksAutomaton+Rules.swift`;
/// the decision (path candidates of every group, merged) in `ApplinksAutomaton+Matching.swift`;
/// queries and fragments in `ApplinksAutomaton+QueryAndFragment.swift`; percent decoding and
/// UTF-8 validation on bytes in `ApplinksAutomaton+PercentDecoding.swift`. The per-URL state is
/// internal so that those files reach it; nothing else in the module touches it.
public final class ApplinksAutomaton {
    /// Budgets of the state caches.
    public struct Limits: Sendable {
        /// Bytes of each path automaton's state cache.
        public var pathCacheBytes = 16 << 20
        /// Bytes of each query or fragment pattern's state cache.
        public var patternCacheBytes = 64 << 10

        public init(pathCacheBytes: Int = 16 << 20, patternCacheBytes: Int = 64 << 10) {
            self.pathCacheBytes = pathCacheBytes
            self.patternCacheBytes = patternCacheBytes
        }
    }

    /// Cache figures, for benchmarks and the hostile-file tests.
    package struct Statistics: Sendable, Hashable {
        /// States cached now, over all automata.
        package var states: Int
        /// Bytes cached now (estimate), over all automata.
        package var cacheBytes: Int
        /// How often a cache was emptied because it reached its budget.
        package var flushes: Int
    }

    let rules: [Rule]
    /// The straightforward matcher, for hand-built ``LinkURL`` values with non-ASCII components.
    let reference: ReferenceApplinksMatcher
    let groups: [PathGroup]
    /// Every app named by a detail, in evaluation order (as the reference matcher lists them).
    public let appIDs: [String]
    let appIndex: [String: Int]
    /// `detailApps[detail * appIDs.count + app]`: whether the detail lists the app.
    let detailApps: [Bool]
    /// How many URLs each rule decided (for the audit's "rules no URL reached"), one per rule.
    let decisions: UnsafeMutablePointer<Int>
    /// Per rule: its detail, and whether it has no query or fragment to check.
    let ruleDetails: UnsafeMutablePointer<Int32>
    let pathOnly: UnsafeMutablePointer<Bool>
    /// Per candidate of the URL being decided: -1 not checked yet, 0 rest fails, 1 rest matches.
    let verdicts: UnsafeMutablePointer<Int8>
    /// Whether a group reads percent-decoded paths.
    let decodes: Bool
    /// Candidates of several groups, merged (at most one per rule).
    let merged: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) var decodedPath: [UInt8] = []
    /// The last app asked about and its index (bulk runs ask about one app).
    @exclusivity(unchecked) var lastApp: (id: String, index: Int)?
    /// The index (into ``allRules``) of the rule that decided the last URL matched, if any.
    @exclusivity(unchecked) public internal(set) var lastDecidingRule: Int?

    /// Compiles the `applinks` rules of `file`.
    public convenience init(file: AssociationFile, limits: Limits = Limits()) {
        self.init(matcher: ReferenceApplinksMatcher(file: file), limits: limits)
    }

    /// Compiles the rules `matcher` holds (same settings, defaults and variables).
    package init(matcher: ReferenceApplinksMatcher, limits: Limits = Limits()) {
        reference = matcher
        appIDs = matcher.appIDs
        var appIndex: [String: Int] = [:]
        for (i, id) in appIDs.enumerated() where appIndex[id] == nil { appIndex[id] = i }
        self.appIndex = appIndex
        var detailApps = [Bool](repeating: false, count: matcher.details.count * appIDs.count)
        var patterns: [String: Pattern] = [:]
        func pattern(_ wildcard: WildcardPattern) -> Pattern {
            let key = (wildcard.caseInsensitive ? "i" : "s") + wildcard.source
            if let known = patterns[key] { return known }
            let made = Pattern(wildcard, budget: limits.patternCacheBytes)
            patterns[key] = made
            return made
        }
        var rules: [Rule] = []
        // Programs per (percentEncoded, caseSensitive) group: 0 raw/sensitive, 1 raw/folded, 2 decoded/sensitive, 3 decoded/folded.
        var programs = [[(program: [WildcardPattern.Instruction], tag: Int32)]](repeating: [], count: 4)
        let anything: [WildcardPattern.Instruction] = [.star, .accept]
        for (position, detail) in matcher.details.enumerated() {
            for app in detail.appIDs {
                if let i = appIndex[app] { detailApps[position * appIDs.count + i] = true }
            }
            for rule in detail.rules {
                let tag = Int32(rules.count)
                let group = (rule.percentEncoded ? 0 : 2) + (rule.caseSensitive ? 0 : 1)
                if let path = rule.path {
                    for alternative in [path.main, path.parent] {
                        guard let alternative, alternative.undefinedVariables.isEmpty else { continue }
                        programs[group].append((alternative.program, tag))
                    }
                } else {
                    programs[group].append((anything, tag))
                }
                let query: Query
                switch rule.query {
                case .any: query = .any
                case .string(let text): query = .string(pattern(text))
                case .items(let items):
                    query = .items(
                        items.map { item in
                            let key = rule.caseSensitive ? item.name : item.name.lowercased()
                            return QueryItem(
                                name: item.name, asciiKey: key.utf8.allSatisfy { $0 < 0x80 } ? Array(key.utf8) : nil,
                                pattern: pattern(item.pattern))
                        })
                }
                rules.append(
                    Rule(
                        detail: position,
                        decided: MatchedRule(
                            detail: detail.index, component: rule.index, key: detail.key, pattern: rule.pattern),
                        exclude: rule.exclude, caseSensitive: rule.caseSensitive,
                        percentEncoded: rule.percentEncoded, query: query,
                        fragment: rule.fragment.map(pattern)))
            }
        }
        self.detailApps = detailApps
        self.rules = rules
        decisions = .allocate(capacity: max(rules.count, 1))
        decisions.initialize(repeating: 0, count: max(rules.count, 1))
        ruleDetails = .allocate(capacity: max(rules.count, 1))
        pathOnly = .allocate(capacity: max(rules.count, 1))
        for (i, rule) in rules.enumerated() {
            ruleDetails[i] = Int32(rule.detail)
            if case .any = rule.query, rule.fragment == nil { pathOnly[i] = true } else { pathOnly[i] = false }
        }
        verdicts = .allocate(capacity: max(rules.count, 1))
        merged = .allocate(capacity: max(rules.count, 1))
        decodes = programs[2].count + programs[3].count > 0
        groups = programs.enumerated().compactMap { group, list in
            guard !list.isEmpty else { return nil }
            return PathGroup(
                dfa: LazyDFA(programs: list, caseFolded: group & 1 == 1, byteBudget: limits.pathCacheBytes),
                percentEncoded: group < 2)
        }
        self.patterns = Array(patterns.values)
    }

    let patterns: [Pattern]

    deinit {
        decisions.deallocate()
        ruleDetails.deallocate()
        pathOnly.deallocate()
        verdicts.deallocate()
        merged.deallocate()
    }

    /// The cache figures now.
    package var statistics: Statistics {
        var result = Statistics(states: 0, cacheBytes: 0, flushes: 0)
        for dfa in groups.map(\.dfa) + patterns.compactMap(\.dfa) {
            result.states += dfa.stateCount
            result.cacheBytes += dfa.cacheBytes
            result.flushes += dfa.flushes
        }
        return result
    }

    /// Every rule, in Apple's order of precedence.
    public var allRules: [MatchedRule] { rules.map(\.decided) }

    /// The rules that decided no URL matched so far through this automaton (byte-level matching only).
    public var unusedRules: [MatchedRule] {
        rules.indices.filter { decisions[$0] == 0 }.map { rules[$0].decided }
    }
}

/// The name a library user reaches for first: the compiled matcher, ``ApplinksAutomaton``.
///
/// ```swift
/// let matcher = ApplinksMatcher(file: try AssociationFile.parse(bytes))
/// let result = try matcher.match("https://example.com/coupon/2345", appID: "ABCDE12345.com.example.app")
/// ```
public typealias ApplinksMatcher = ApplinksAutomaton
