public import SWCredCore

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

    /// One wildcard pattern for query or fragment text; `nil` automaton: never matches.
    final class Pattern {
        let dfa: LazyDFA?
        let matchesEmpty: Bool

        init(_ pattern: WildcardPattern, budget: Int) {
            if pattern.undefinedVariables.isEmpty {
                let dfa = LazyDFA(
                    programs: [(pattern.program, 0)], caseFolded: pattern.caseInsensitive, byteBudget: budget)
                self.dfa = dfa
                matchesEmpty = dfa.accepts(dfa.start)
            } else {
                dfa = nil
                matchesEmpty = false
            }
        }

        func matches(ascii bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            dfa?.accepts(ascii: bytes) ?? false
        }

        func matches(_ text: String) -> Bool {
            dfa?.accepts(scalars: text) ?? false
        }

        /// Whether the scalars of well-formed UTF-8 `bytes` match.
        func matches(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let dfa else { return false }
            return dfa.accepts(dfa.run(utf8: bytes))
        }
    }

    struct QueryItem {
        var name: String
        /// `name` (or its lowercase form when case-insensitive) as bytes, when that is ASCII.
        var asciiKey: [UInt8]?
        var pattern: Pattern
    }

    enum Query {
        case any
        case string(Pattern)
        case items([QueryItem])
    }

    final class Rule {
        let detail: Int
        let decided: MatchedRule
        let exclude: Bool
        let caseSensitive: Bool
        let percentEncoded: Bool
        let query: Query
        let fragment: Pattern?

        init(
            detail: Int, decided: MatchedRule, exclude: Bool, caseSensitive: Bool, percentEncoded: Bool, query: Query,
            fragment: Pattern?
        ) {
            self.detail = detail
            self.decided = decided
            self.exclude = exclude
            self.caseSensitive = caseSensitive
            self.percentEncoded = percentEncoded
            self.query = query
            self.fragment = fragment
        }
    }

    struct PathGroup {
        var dfa: LazyDFA
        var percentEncoded: Bool
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
    private let decisions: UnsafeMutablePointer<Int>
    /// Per rule: its detail, and whether it has no query or fragment to check.
    private let ruleDetails: UnsafeMutablePointer<Int32>
    private let pathOnly: UnsafeMutablePointer<Bool>
    /// Per candidate of the URL being decided: -1 not checked yet, 0 rest fails, 1 rest matches.
    private let verdicts: UnsafeMutablePointer<Int8>
    /// Whether a group reads percent-decoded paths.
    private let decodes: Bool
    /// Candidates of several groups, merged (at most one per rule).
    private let merged: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) private var decodedPath: [UInt8] = []
    /// The last app asked about and its index (bulk runs ask about one app).
    @exclusivity(unchecked) private var lastApp: (id: String, index: Int)?
    /// The index (into ``allRules``) of the rule that decided the last URL matched, if any.
    @exclusivity(unchecked) public private(set) var lastDecidingRule: Int?

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

    private let patterns: [Pattern]

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

    // MARK: - Matching

    /// Parses `text` and matches it (AD-7.1, AD-7.3), as the reference matcher decides it.
    ///
    /// - Throws: `SWCredError.Code.invalidURL` (exit 64) when `text` is not an http(s) URL.
    public func match(_ text: String, appID: String?) throws(SWCredError) -> ApplinksMatch {
        // The common form is split and decided on the text's own bytes; anything else through LinkURLView.
        var text = text
        let decided: ApplinksMatch? = text.withUTF8 { bytes in
            guard let scan = LinkURLView.scan(bytes) else { return nil }
            return decide(
                path: UnsafeBufferPointer(rebasing: bytes[scan.pathStart..<scan.pathEnd]),
                query: scan.queryStart < 0
                    ? nil : UnsafeBufferPointer(rebasing: bytes[scan.queryStart..<scan.queryEnd]),
                fragment: scan.fragmentStart < 0
                    ? nil : UnsafeBufferPointer(rebasing: bytes[scan.fragmentStart..<scan.count]),
                nonDefaultPort: scan.nonDefaultPort, appID: appID)
        }
        if let decided { return decided }
        return match(try LinkURLView(text), appID: appID)
    }

    /// Matches a parsed URL (AD-7.3): the decision the reference matcher makes.
    package func match(_ url: LinkURLView, appID: String?) -> ApplinksMatch {
        switch url.storage {
        case .bytes(let path, let query, let fragment):
            var text = url.text
            return text.withUTF8 { bytes in
                decide(
                    path: UnsafeBufferPointer(rebasing: bytes[path]),
                    query: query.map { UnsafeBufferPointer(rebasing: bytes[$0]) },
                    fragment: fragment.map { UnsafeBufferPointer(rebasing: bytes[$0]) },
                    nonDefaultPort: url.hasNonDefaultPort, appID: appID)
            }
        case .parsed(let link):
            return match(link, appID: appID)
        }
    }

    /// Matches `url` (AD-7.3): the decision the reference matcher makes.
    public func match(_ url: LinkURL, appID: String?) -> ApplinksMatch {
        // A parsed LinkURL's components are ASCII; one built by hand may not be: the reference decides.
        lastDecidingRule = nil
        guard url.path.utf8.allSatisfy({ $0 < 0x80 }), url.query?.utf8.allSatisfy({ $0 < 0x80 }) ?? true,
            url.fragment?.utf8.allSatisfy({ $0 < 0x80 }) ?? true
        else {
            return reference.match(url, appID: appID)
        }
        let path = Array(url.path.utf8)
        let query = url.query.map { Array($0.utf8) }
        let fragment = url.fragment.map { Array($0.utf8) }
        return path.withUnsafeBufferPointer { path in
            withOptionalBuffer(query) { query in
                withOptionalBuffer(fragment) { fragment in
                    decide(
                        path: path, query: query, fragment: fragment, nonDefaultPort: url.hasNonDefaultPort,
                        appID: appID)
                }
            }
        }
    }

    private func withOptionalBuffer<R>(_ bytes: [UInt8]?, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        guard let bytes else { return body(nil) }
        return bytes.withUnsafeBufferPointer { body($0) }
    }

    /// The decision on ASCII components.
    private func decide(
        path: UnsafeBufferPointer<UInt8>, query: UnsafeBufferPointer<UInt8>?,
        fragment: UnsafeBufferPointer<UInt8>?, nonDefaultPort: Bool, appID: String?
    ) -> ApplinksMatch {
        lastDecidingRule = nil
        guard !nonDefaultPort else { return ApplinksMatch(outcome: .noMatch, appID: appID, rule: nil) }
        var wanted = -1
        if let appID {
            if let last = lastApp, last.id == appID {
                wanted = last.index
            } else {
                guard let index = appIndex[appID] else {
                    return ApplinksMatch(outcome: .noMatch, appID: appID, rule: nil)
                }
                lastApp = (appID, index)
                wanted = index
            }
        }
        let candidates = pathCandidates(path)
        let apps = appIDs.count
        guard !candidates.isEmpty else { return ApplinksMatch(outcome: .noMatch, appID: appID, rule: nil) }
        let found: Int32
        let app: Int
        verdicts.update(repeating: -1, count: candidates.count)
        if wanted >= 0 {
            app = wanted
            found = firstDeciding(candidates, app: wanted, apps: apps, query, fragment)
        } else {
            // No app given: each listed app in order, the first that decides (verdicts memoised).
            (found, app) = {
                for app in 0..<apps {
                    let found = firstDeciding(candidates, app: app, apps: apps, query, fragment)
                    if found >= 0 { return (found, app) }
                }
                return (-1, 0)
            }()
        }
        guard found >= 0 else { return ApplinksMatch(outcome: .noMatch, appID: appID, rule: nil) }
        let index = Int(found)
        decisions[index] += 1
        lastDecidingRule = index
        return ApplinksMatch(
            outcome: rules[index].exclude ? .exclude : .match, appID: appID ?? appIDs[app], rule: rules[index].decided)
    }

    /// The first of `candidates` (in priority order) listed for `app` whose query and fragment
    /// match; -1 if none. With no app given (`verdicts` set up), each candidate is checked once.
    @inline(__always)
    private func firstDeciding(
        _ candidates: UnsafeBufferPointer<Int32>, app: Int, apps: Int, _ query: UnsafeBufferPointer<UInt8>?,
        _ fragment: UnsafeBufferPointer<UInt8>?
    ) -> Int32 {
        for (position, candidate) in candidates.enumerated() {
            let index = Int(candidate)
            guard detailApps[Int(ruleDetails[index]) &* apps &+ app] else { continue }
            if pathOnly[index] { return candidate }
            if verdicts[position] < 0 {
                verdicts[position] = matchesRest(rules[index], query: query, fragment: fragment) ? 1 : 0
            }
            if verdicts[position] == 1 { return candidate }
        }
        return -1
    }

    /// The rules whose path accepts `path`, in priority order (valid until a path automaton runs again).
    private func pathCandidates(_ path: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<Int32> {
        // AD-7.7: an empty path is `/`, trailing slashes are stripped.
        var end = path.count
        while end > 0, path[end - 1] == UInt8(ascii: "/") { end -= 1 }
        let stripped = UnsafeBufferPointer(rebasing: path[0..<end])
        let escaped = decodes && path.contains(UInt8(ascii: "%"))
        if escaped { Self.percentDecode(path, into: &decodedPath) }
        if groups.count == 1 { return tags(groups[0], stripped, escaped) }
        var first = UnsafeBufferPointer<Int32>(start: nil, count: 0)
        var lists = 0
        var count = 0
        for group in groups {
            let found = tags(group, stripped, escaped)
            guard !found.isEmpty else { continue }
            lists += 1
            if lists == 1 {
                first = found
                continue
            }
            if lists == 2 {
                for tag in first {
                    merged[count] = tag
                    count += 1
                }
            }
            // Insertion into the sorted run (lists are short; each rule is in one group only).
            for tag in found {
                var k = count
                while k > 0, merged[k - 1] > tag {
                    merged[k] = merged[k - 1]
                    k -= 1
                }
                merged[k] = tag
                count += 1
            }
        }
        guard lists > 1 else { return first }
        return UnsafeBufferPointer(start: merged, count: count)
    }

    private func tags(
        _ group: PathGroup, _ stripped: UnsafeBufferPointer<UInt8>, _ escaped: Bool
    ) -> UnsafeBufferPointer<Int32> {
        let dfa = group.dfa
        if group.percentEncoded || !escaped {
            return dfa.tags(dfa.run(ascii: stripped))
        }
        // percentEncoded: false and an escape: decode (AD-7.12), then strip trailing slashes as PathPattern does.
        var end = decodedPath.count
        while end > 0, decodedPath[end - 1] == UInt8(ascii: "/") { end -= 1 }
        return decodedPath.withUnsafeBufferPointer {
            dfa.tags(dfa.run(utf8: UnsafeBufferPointer(rebasing: $0[0..<end])))
        }
    }

    /// `PercentDecoding.decode` on bytes, into `output` (emptied first): each run of `%XX` escapes
    /// becomes its bytes when they are well-formed UTF-8, else stays as written; other bytes are
    /// copied. `text` is ASCII, so `output` is well-formed UTF-8.
    static func percentDecode(_ text: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        output.removeAll(keepingCapacity: true)
        let count = text.count
        var index = 0
        while index < count {
            guard text[index] == UInt8(ascii: "%"), index + 2 < count, let high = hexValue(text[index + 1]),
                let low = hexValue(text[index + 2])
            else {
                output.append(text[index])
                index += 1
                continue
            }
            // A run of escapes.
            let runStart = index
            let decodedStart = output.count
            output.append(high << 4 | low)
            index += 3
            while index + 2 < count, text[index] == UInt8(ascii: "%"), let high = hexValue(text[index + 1]),
                let low = hexValue(text[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            }
            if !Self.isWellFormedUTF8(output[decodedStart...]) {
                output.removeSubrange(decodedStart...)
                output.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<index]))
            }
        }
    }

    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Whether `bytes` are well-formed UTF-8 (Unicode table 3-7: no overlong forms, no
    /// surrogates, nothing above U+10FFFF), as `String(validating:as:)` decides.
    static func isWellFormedUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end {
            let lead = bytes[i]
            var length = 0
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0x00...0x7F: i += 1; continue
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return false
            }
            guard end - i >= length else { return false }
            let second = bytes[i + 1]
            guard second >= low, second <= high else { return false }
            for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return false }
            i += length
        }
        return true
    }

    /// Query and fragment of a rule whose path accepted (AD-7.8 – AD-7.12).
    private func matchesRest(
        _ rule: Rule, query: UnsafeBufferPointer<UInt8>?, fragment: UnsafeBufferPointer<UInt8>?
    ) -> Bool {
        switch rule.query {
        case .any: break
        case .string(let pattern):
            guard Self.matches(pattern, query, decode: !rule.percentEncoded) else { return false }
        case .items(let items):
            guard matchesItems(items, rule, query) else { return false }
        }
        if let pattern = rule.fragment {
            guard Self.matches(pattern, fragment, decode: !rule.percentEncoded) else { return false }
        }
        return true
    }

    private static func matches(_ pattern: Pattern, _ text: UnsafeBufferPointer<UInt8>?, decode: Bool) -> Bool {
        guard let text, !text.isEmpty else { return pattern.matchesEmpty }
        if decode, text.contains(UInt8(ascii: "%")) {
            var decoded: [UInt8] = []
            percentDecode(text, into: &decoded)
            return decoded.withUnsafeBufferPointer { pattern.matches(utf8: $0) }
        }
        return pattern.matches(ascii: text)
    }

    /// AD-7.9: every item named by the rule must match every instance (absent: the empty string).
    private func matchesItems(_ items: [QueryItem], _ rule: Rule, _ query: UnsafeBufferPointer<UInt8>?) -> Bool {
        let raw = query ?? UnsafeBufferPointer(start: nil, count: 0)
        let slow = !rule.percentEncoded && raw.contains(UInt8(ascii: "%"))
        if slow || items.contains(where: { $0.asciiKey == nil }) {
            // Decoded or non-ASCII names: the reference comparison on strings.
            let pairs = QueryItems.split(String(decoding: raw, as: UTF8.self), decode: !rule.percentEncoded)
            for item in items {
                let name = rule.caseSensitive ? item.name : item.name.lowercased()
                let values = pairs.filter { (rule.caseSensitive ? $0.name : $0.name.lowercased()) == name }
                if values.isEmpty {
                    guard item.pattern.matchesEmpty else { return false }
                } else {
                    guard values.allSatisfy({ item.pattern.matches($0.value) }) else { return false }
                }
            }
            return true
        }
        for item in items {
            guard let key = item.asciiKey else { return false }
            var found = false
            var start = 0
            let count = raw.count
            while start <= count {
                var stop = start
                while stop < count, raw[stop] != UInt8(ascii: "&") { stop += 1 }
                if stop > start {
                    var equals = start
                    while equals < stop, raw[equals] != UInt8(ascii: "=") { equals += 1 }
                    if Self.nameEquals(raw, start, equals, key, fold: !rule.caseSensitive) {
                        found = true
                        let value = equals < stop ? UnsafeBufferPointer(rebasing: raw[(equals + 1)..<stop]) : nil
                        guard Self.matches(item.pattern, value, decode: false) else { return false }
                    }
                }
                start = stop + 1
            }
            if !found, !item.pattern.matchesEmpty { return false }
        }
        return true
    }

    private static func nameEquals(
        _ raw: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ key: [UInt8], fold: Bool
    ) -> Bool {
        guard end - start == key.count else { return false }
        for (offset, expected) in key.enumerated() {
            var byte = raw[start + offset]
            if fold, byte &- 0x41 < 26 { byte |= 0x20 }
            guard byte == expected else { return false }
        }
        return true
    }
}

/// The name a library user reaches for first: the compiled matcher, ``ApplinksAutomaton``.
///
/// ```swift
/// let matcher = ApplinksMatcher(file: try AssociationFile.parse(bytes))
/// let result = try matcher.match("https://example.com/coupon/2345", appID: "ABCDE12345.com.example.app")
/// ```
public typealias ApplinksMatcher = ApplinksAutomaton
