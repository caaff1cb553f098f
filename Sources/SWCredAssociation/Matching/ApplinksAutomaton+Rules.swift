// The compiled rules of an ``ApplinksAutomaton``: query and fragment patterns, query items, and
// the path automaton of each (percentEncoded, caseSensitive) group.

extension ApplinksAutomaton {
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
}
